/**
 * A leader that hangs (SIGSTOP) rather than dies: on real PostgreSQL, two `market-gateway worker`
 * processes; the standby must take the jobs over within the documented 10 s, and the old leader,
 * once resumed, must write nothing as leader (the fence refuses its jobs sessions) and stop its jobs.
 */
import pg from 'pg';
import { CLI_MAIN } from '../support/cli.js';
import { createPgSchema, postgresAvailable, tempDataDir } from '../support/engines.js';
import { killStartedProcesses, type StartedProcess, startProcess } from '../support/process.js';
import { within } from '../support/wait.js';

const maybe = (await postgresAvailable()) ? it : it.skip;
afterEach(killStartedProcesses);

const worker = (url: string) =>
  startProcess(process.execPath, [CLI_MAIN, 'worker'], {
    DATA_DIR: tempDataDir(),
    DATABASE_URL: url,
    ALLOW_LOCAL_QUOTAS: '1',
    LOG_LEVEL: 'info',
    NODE_ENV: 'production',
  });
const holds = (p: StartedProcess) => p.output().includes('holding the jobs lease');

maybe(
  'a hung leader is replaced within 10 s, and when it resumes it writes nothing as leader',
  async () => {
    const schema = await createPgSchema();
    const db = new pg.Client({ connectionString: schema.url });
    await db.connect();
    try {
      const first = worker(schema.url);
      await within(60_000, () => holds(first));
      const second = worker(schema.url);
      await within(60_000, () => second.output().includes('market-gateway worker running'));
      expect(holds(second)).toBe(false);
      const firstHolder = (await db.query<{ holder: string }>(`select holder from jobs_lease where name = 'jobs'`)).rows[0]!.holder;

      first.child.kill('SIGSTOP');
      const stoppedAt = Date.now();
      await within(30_000, () => holds(second));
      const takeoverMs = Date.now() - stoppedAt;
      console.log(`hung leader replaced after ${takeoverMs} ms`);
      expect(takeoverMs).toBeLessThan(10_000);
      const secondHolder = (await db.query<{ holder: string }>(`select holder from jobs_lease where name = 'jobs'`)).rows[0]!.holder;
      expect(secondHolder).not.toBe(firstHolder);

      // The fence: a jobs session of the old holder can no longer write a jobs table.
      const stale = new pg.Client({ connectionString: schema.url });
      await stale.connect();
      try {
        await stale.query(`select set_config('mgw.jobs_holder', $1, false)`, [firstHolder]);
        await expect(stale.query(`update markets set halted = halted`)).rejects.toThrow(/fenced/);
      } finally {
        await stale.end();
      }

      first.child.kill('SIGCONT');
      await within(30_000, () => first.output().includes('lost the jobs lease'));
      // Still the second's, and the first never claimed it back.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect((await db.query<{ holder: string }>(`select holder from jobs_lease where name = 'jobs'`)).rows[0]!.holder).toBe(secondHolder);
      expect(first.output().split('holding the jobs lease').length - 1).toBe(1);
    } finally {
      await db.end();
      await schema.drop();
    }
  },
  180_000,
);
