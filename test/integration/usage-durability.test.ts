/**
 * What the usage records promise about a process that ends, on both engines, with the built bin in
 * a child process: counts are written every USAGE_FLUSH_MS without any shutdown; a kill -9 loses at
 * most what was counted since the last write (the requests of one interval); SIGTERM loses nothing.
 */
import { createStore, openStore } from '../../src/store/index.js';
import { runCli } from '../support/cli.js';
import { type ChildService, spawnService } from '../support/child-service.js';
import { postgresAvailable, PROCESS_ENGINES } from '../support/engines.js';
import { within } from '../support/wait.js';

const pg = await postgresAvailable();
const FLUSH_MS = 250;

describe.each(PROCESS_ENGINES)('usage records on $name', (engine) => {
  const run = engine.name === 'PostgreSQL' && !pg ? it.skip : it;

  run(
    'written every interval while running; kill -9 loses at most the last interval; SIGTERM loses nothing',
    async () => {
      const { env: base, drop } = await engine.env();
      const env: Record<string, string> = { ...base, USAGE_FLUSH_MS: String(FLUSH_MS) };
      const store = createStore(await openStore({ dataDir: env.DATA_DIR!, databaseUrl: env.DATABASE_URL }));
      const recorded = async (keyId: string) =>
        (await store.usage.report({ sinceDay: '2000-01-01', keyId }, 'key')).reduce((sum, group) => sum + group.requests, 0);
      let service: ChildService | undefined;
      let again: ChildService | undefined;
      try {
        service = await spawnService(env);
        const first = service;
        const { key, id } = JSON.parse((await runCli(['keys', 'create', '--plan', 'pro', '--json'], env)).stdout) as { key: string; id: string };
        const send = async (n: number) => {
          for (let i = 0; i < n; i++) {
            const res = await fetch(`${first.a}/api/v1/markets?limit=1`, { headers: { authorization: `Bearer ${key}` } });
            expect(res.status).toBe(200);
          }
        };
        // Written by the interval, the process still running.
        await send(10);
        const writtenWithinMs = await within(10_000, async () => (await recorded(id)) === 10);
        // Five more, then kill -9 at once: what was written stays; at most the last interval's five are lost.
        await send(5);
        expect(await first.stop('SIGKILL')).toBeNull();
        const afterKill = await recorded(id);
        expect(afterKill).toBeGreaterThanOrEqual(10);
        expect(afterKill).toBeLessThanOrEqual(15);

        // A graceful stop writes everything it counted.
        const second = await spawnService(env);
        again = second;
        for (let i = 0; i < 4; i++)
          expect((await fetch(`${second.a}/api/v1/markets?limit=1`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
        expect(await second.stop('SIGTERM')).toBe(0);
        expect(await recorded(id)).toBe(afterKill + 4);
        console.log(
          `${engine.name}: usage written ${writtenWithinMs} ms after the 10th request (USAGE_FLUSH_MS ${FLUSH_MS}); kill -9 right after 5 more kept ${afterKill} of 15; SIGTERM kept all 4`,
        );
      } finally {
        // Both services stopped whatever the outcome (a no-op for one that already exited).
        await service?.kill();
        await again?.kill();
        await store.connection.close();
        await drop();
      }
    },
    60_000,
  );
});
