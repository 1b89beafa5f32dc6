/**
 * SIGTERM stops the whole process cleanly: stop accepting, finish, close pools, exit 0 within 10 s,
 * embedded and on PostgreSQL + Redis. NODE_ENV=production as deployed: outside `test`, Apollo Server
 * registers its own signal handler, which once cut the drain short and exited 1.
 */
import { createPgSchema, postgresAvailable, tempDataDir } from '../support/engines.js';
import { spawnService } from '../support/child-service.js';
import { redisAvailable, SHARED_REDIS_URL } from '../support/redis.js';

const distributed = (await postgresAvailable()) && (await redisAvailable());

async function startAndTerminate(env: Record<string, string>): Promise<{ code: number | null; stoppedInMs: number; output: string }> {
  const service = await spawnService({ DATA_DIR: tempDataDir(), ...env });
  const started = Date.now();
  const code = await service.stop('SIGTERM');
  return { code, stoppedInMs: Date.now() - started, output: service.output() };
}

it('embedded: exits 0 within 10 s of SIGTERM', async () => {
  const { code, stoppedInMs, output } = await startAndTerminate({});
  expect(output).not.toContain('SIGTERM again');
  expect(code).toBe(0);
  expect(stoppedInMs).toBeLessThan(10_000);
}, 40_000);

(distributed ? it : it.skip)('PostgreSQL + Redis: exits 0 within 10 s of SIGTERM, releasing the jobs lease', async () => {
  const schema = await createPgSchema();
  try {
    const { code, stoppedInMs, output } = await startAndTerminate({ DATABASE_URL: schema.url, REDIS_URL: SHARED_REDIS_URL });
    expect(output).not.toContain('SIGTERM again');
    expect(output).toContain('released the jobs lease');
    expect(code).toBe(0);
    expect(stoppedInMs).toBeLessThan(10_000);
  } finally {
    await schema.drop();
  }
}, 40_000);
