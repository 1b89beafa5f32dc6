/**
 * SIGTERM stops the whole process cleanly: stop accepting, finish, close pools, exit 0 within 10 s,
 * embedded and on PostgreSQL + Redis. NODE_ENV=production as deployed: outside `test`, Apollo Server
 * registers its own signal handler, which once cut the drain short and exited 1.
 */
import { spawn } from 'node:child_process';
import { createPgSchema, postgresAvailable, tempDataDir } from '../support/engines.js';
import { REPO_ROOT } from '../support/cli.js';
import { redisAvailable, SHARED_REDIS_URL } from '../support/redis.js';

const distributed = (await postgresAvailable()) && (await redisAvailable());

async function startAndTerminate(env: Record<string, string>): Promise<{ code: number | null; stoppedInMs: number; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'start'], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_OPTIONS: '', NODE_ENV: 'production', LOG_LEVEL: 'info', MARKET_DATA_PORT: '0', PREDICTION_PORT: '0', DATA_DIR: tempDataDir(), ...env },
  });
  let output = '';
  child.stdout.on('data', (d) => (output += String(d)));
  child.stderr.on('data', (d) => (output += String(d)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not listening within 20 s:\n${output}`)), 20_000);
    child.stdout.on('data', () => {
      if (output.includes('market-gateway listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  const started = Date.now();
  child.kill('SIGTERM');
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  return { code, stoppedInMs: Date.now() - started, output };
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
