/**
 * A standby of the jobs lease says why it waits, once per situation rather than every retry: who
 * holds the lease, or why it cannot even try. Silence there once hid a standby that never took over.
 */
import pino from 'pino';
import { createLeaderLease } from '../../../src/cluster/leader-lease.js';
import { openStore } from '../../../src/store/database.js';
import { createPgSchema, tempDataDir } from '../../support/engines.js';
import { gated } from '../../support/gates.js';
import { within } from '../../support/wait.js';

/** A logger whose lines are kept. */
function capturedLogger() {
  const lines: { level: number; msg: string; holder?: string; reason?: string }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

const noJobs = { onElected: async () => undefined, onDemoted: async () => undefined };

gated('postgres')('a standby names the holder once however often it retries, and takes over when the holder stops', async () => {
  const schema = await createPgSchema();
  const store = await openStore({ dataDir: tempDataDir(), databaseUrl: schema.url }); // the lease's table
  const first = capturedLogger();
  const second = capturedLogger();
  const holder = createLeaderLease({ databaseUrl: schema.url, holder: 'first', logger: first.logger, retryMs: 20, ...noJobs });
  const standby = createLeaderLease({ databaseUrl: schema.url, holder: 'second', logger: second.logger, retryMs: 20, ...noJobs });
  try {
    await holder.start();
    await standby.start();
    expect([holder.isLeader(), standby.isLeader()]).toEqual([true, false]);
    // Ten retries or more, one line.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(second.lines.filter((l) => l.msg.includes('standing by'))).toEqual([
      expect.objectContaining({ level: 30, holder: 'first', msg: 'another instance holds the jobs lease; standing by' }),
    ]);
    await holder.stop();
    await within(5_000, () => standby.isLeader());
  } finally {
    await holder.stop();
    await standby.stop();
    await store.close();
    await schema.drop();
  }
});

it('a standby that cannot reach PostgreSQL says why once, not every retry', async () => {
  const { logger, lines } = capturedLogger();
  // A port nothing listens on: refused at once.
  const lease = createLeaderLease({ databaseUrl: 'postgres://postgres@127.0.0.1:9/test', holder: 'lonely', logger, retryMs: 20, ...noJobs });
  try {
    await lease.start();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const said = lines.filter((l) => l.msg === 'cannot try for the jobs lease; retrying');
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ level: 40, reason: expect.stringMatching(/ECONNREFUSED/) });
    expect(lease.isLeader()).toBe(false);
  } finally {
    await lease.stop();
  }
});
