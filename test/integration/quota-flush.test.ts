/**
 * The day counts that Redis admits reach the database: a flush resolves only once every count
 * recorded before it is written, even while an interval flush is still writing an earlier batch
 * (the race that once made the two-instance quota test read 6 of 10).
 */
import { Redis } from 'ioredis';
import pino from 'pino';
import { randomBase62 } from '../../src/domain/ids.js';
import { createRedisQuota } from '../../src/quota/redis-quota.js';
import { windowAt } from '../../src/quota/counters.js';
import { createStore, openStore } from '../../src/store/index.js';
import { tempDataDir } from '../support/engines.js';
import { redisAvailable, SHARED_REDIS_URL } from '../support/redis.js';
import { within } from '../support/wait.js';

const maybe = (await redisAvailable()) ? it : it.skip;

maybe('a flush waits for the batch an interval flush is still writing', async () => {
  const connection = await openStore({ dataDir: tempDataDir() });
  const store = createStore(connection);
  const redis = new Redis(SHARED_REDIS_URL);
  // The database write of the first batch hangs until the test lets it go.
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let writes = 0;
  const days = {
    ...store.quotaDays,
    async add(deltas: Parameters<typeof store.quotaDays.add>[0]) {
      if (writes++ === 0) await gate;
      await store.quotaDays.add(deltas);
    },
  };
  const quota = createRedisQuota({ redis, days, logger: pino({ level: 'silent' }), flushMs: 5, keyPrefix: `mgw:test:${randomBase62(8)}` });
  const account = { id: randomBase62(12), name: 't', marketDataPlan: 'free' as const, predictionPlan: 'none' as const };
  const now = Date.now();
  try {
    for (let i = 0; i < 3; i++) expect((await quota.consume(account, 'marketData', now)).allowed).toBe(true);
    await within(2_000, () => writes === 1); // the interval flush took all three
    for (let i = 0; i < 2; i++) await quota.consume(account, 'marketData', now);

    let flushed = false;
    const flushing = quota.flush().then(() => (flushed = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(flushed).toBe(false); // still behind the hung first batch
    release();
    await flushing;
    expect(await store.quotaDays.get(account.id, 'marketData', windowAt('day', now).index)).toBe(5);
  } finally {
    release();
    await quota.stop();
    redis.disconnect();
    await connection.close();
  }
});
