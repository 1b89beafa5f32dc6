/**
 * `QuotaService.peek` (the dashboard's Usage page): this minute's and today's counts of a product's
 * limited windows, read from the counters that write `X-RateLimit-*` without spending them. On the
 * store quota (minute in memory, day in SQLite or PostgreSQL) and on the Redis quota (its day counts
 * in that engine): peek agrees with what consume admitted, spends nothing, never counts a 429 (D4),
 * leaves unlimited windows out, and follows the UTC windows. With Redis, a day key Redis lost is read
 * from the database, and two instances see each other's counts.
 */
import { fakeTheClock, realClock } from '../support/fake-timers.js';
import BetterSqlite3 from 'better-sqlite3';
import type { Redis } from 'ioredis';
import pino from 'pino';
import type { Account, MarketDataPlan, PredictionPlan, Product } from '../../src/domain/account.js';
import { randomBase62 } from '../../src/domain/ids.js';
import { deleteExpiredCounts } from '../../src/quota/counters.js';
import { createStoreQuota } from '../../src/quota/index.js';
import { type PlanLimitTable, resolvePlanLimits } from '../../src/quota/plans.js';
import { createRedisClient, waitForRedis } from '../../src/quota/redis-client.js';
import { createRedisQuota } from '../../src/quota/redis-quota.js';
import type { QuotaDecision, QuotaService, WindowCount } from '../../src/quota/quota-service.js';
import { describeOnEachEngine } from '../support/store-suite.js';
import { redisAvailable, SHARED_REDIS_URL } from '../support/redis.js';

const redisOk = await redisAvailable();
const silent = pino({ level: 'silent' });

/** A fixed clock: 2030-01-15 12:34:20.500 UTC, mid-minute and mid-day. */
const NOW = Date.UTC(2030, 0, 15, 12, 34, 20, 500);
const MINUTE_END = Date.UTC(2030, 0, 15, 12, 35);
const DAY_END = Date.UTC(2030, 0, 16);
const NEXT_MINUTE = NOW + 60_000;

type RedisQuota = ReturnType<typeof createRedisQuota>;

const accountOn = (marketDataPlan: MarketDataPlan = 'free', predictionPlan: PredictionPlan = 'none'): Account => ({
  id: randomBase62(12),
  name: 'peek',
  marketDataPlan,
  predictionPlan,
});

const minute = (limit: number, used: number, endsAt = MINUTE_END): WindowCount => ({ window: 'minute', limit, used, endsAt });
const day = (limit: number, used: number, endsAt = DAY_END): WindowCount => ({ window: 'day', limit, used, endsAt });

/** `n` consumes, every one admitted. */
async function admit(quota: QuotaService, account: Account, n: number, now = NOW, product: Product = 'marketData'): Promise<QuotaDecision[]> {
  const decisions: QuotaDecision[] = [];
  for (let i = 0; i < n; i++) decisions.push(await quota.consume(account, product, now));
  expect(decisions.map((d) => d.allowed)).toEqual(Array(n).fill(true));
  return decisions;
}

describeOnEachEngine('QuotaService.peek', (suite) => {
  const prefix = `mgw:test:peek:${randomBase62(8)}`;
  const clients: Redis[] = [];
  const redisQuotas: RedisQuota[] = [];
  const redisMaybe = suite.enabled && redisOk ? it : it.skip;

  /** A Redis connection as the service makes it (fail fast, no offline queue), ready. */
  async function redisClient(): Promise<Redis> {
    const redis = await createRedisClient(SHARED_REDIS_URL, silent);
    clients.push(redis);
    await waitForRedis(redis, 2_000, silent);
    return redis;
  }

  /** A Redis quota as one gateway instance has it; every one of this suite shares the key prefix (one Redis). */
  async function redisQuota(limits?: PlanLimitTable): Promise<RedisQuota> {
    const quota = createRedisQuota({ redis: await redisClient(), days: suite.store.quotaDays, logger: silent, keyPrefix: prefix, limits });
    redisQuotas.push(quota);
    return quota;
  }

  const kinds: { name: string; maybe: jest.It; build(limits?: PlanLimitTable): Promise<QuotaService> }[] = [
    {
      name: `store quota (minute in memory, day in ${suite.engine.name})`,
      maybe: suite.maybe,
      build: async (limits) => createStoreQuota(suite.store.connection, limits),
    },
    { name: `Redis quota (days in ${suite.engine.name})`, maybe: redisMaybe, build: redisQuota },
  ];

  // Nested, so this runs before the suite closes its store: the Redis quotas write their last day counts.
  describe('on each quota', () => {
    afterAll(async () => {
      await Promise.all(redisQuotas.map((q) => q.stop()));
      const [first] = clients;
      if (first) {
        const keys = await first.keys(`${prefix}:*`);
        if (keys.length > 0) await first.del(...keys);
      }
      await Promise.all(clients.map((c) => c.quit().catch(() => c.disconnect())));
    });

    describe.each(kinds.map((k) => [k.name, k] as const))('%s', (_name, kind) => {
      const maybe = kind.maybe;

      maybe("after N consumes, peek says N in the minute and the day, with the plan's limits and the UTC windows' ends", async () => {
        const quota = await kind.build();
        const free = accountOn('free');
        const pro = accountOn('pro');
        expect(await quota.peek(free, 'marketData', NOW)).toEqual([minute(10, 0), day(1_000, 0)]);

        await admit(quota, free, 4);
        await admit(quota, pro, 2);
        expect(await quota.peek(free, 'marketData', NOW)).toEqual([minute(10, 4), day(1_000, 4)]);
        expect(await quota.peek(pro, 'marketData', NOW)).toEqual([minute(60, 2), day(50_000, 2)]);
        // Another account's counts are its own.
        expect(await quota.peek(accountOn('free'), 'marketData', NOW)).toEqual([minute(10, 0), day(1_000, 0)]);
        // Any instant of the same minute reads the same windows.
        expect(await quota.peek(free, 'marketData', MINUTE_END - 60_000)).toEqual([minute(10, 4), day(1_000, 4)]);
        expect(await quota.peek(free, 'marketData', MINUTE_END - 1)).toEqual([minute(10, 4), day(1_000, 4)]);
      });

      maybe('peek spends nothing: after many peeks the minute still admits exactly its limit, and each answer has limit - used left', async () => {
        const quota = await kind.build();
        const account = accountOn('free');
        await admit(quota, account, 3);
        for (let i = 0; i < 20; i++) expect(await quota.peek(account, 'marketData', NOW)).toEqual([minute(10, 3), day(1_000, 3)]);
        const together = await Promise.all(Array.from({ length: 20 }, () => quota.peek(account, 'marketData', NOW)));
        expect(together).toEqual(Array(20).fill([minute(10, 3), day(1_000, 3)]));

        let admitted = 0;
        for (let i = 0; i < 20; i++) {
          const decision = await quota.consume(account, 'marketData', NOW);
          if (!decision.allowed) break;
          admitted++;
          const [m] = await quota.peek(account, 'marketData', NOW);
          expect(m!.used).toBe(3 + admitted);
          // The binding window is the minute: its headers are what peek counts.
          expect(decision.headers).toEqual({
            'X-RateLimit-Limit': String(m!.limit),
            'X-RateLimit-Remaining': String(m!.limit - m!.used),
            'X-RateLimit-Reset': String(MINUTE_END / 1000),
          });
        }
        expect(admitted).toBe(7);
        expect(await quota.peek(account, 'marketData', NOW)).toEqual([minute(10, 10), day(1_000, 10)]);
      });

      maybe('a request refused by the minute spends nothing that peek counts', async () => {
        const quota = await kind.build();
        const account = accountOn('free');
        await admit(quota, account, 10);
        for (let i = 0; i < 5; i++) {
          const refused = await quota.consume(account, 'marketData', NOW);
          expect(refused.allowed).toBe(false);
          expect(refused.headers['X-RateLimit-Limit']).toBe('10');
        }
        expect(await quota.peek(account, 'marketData', NOW)).toEqual([minute(10, 10), day(1_000, 10)]);
        // Next minute: the day counts only the 10 admitted.
        expect(await quota.peek(account, 'marketData', NEXT_MINUTE)).toEqual([minute(10, 0, MINUTE_END + 60_000), day(1_000, 10)]);
      });

      maybe('a request refused by the day gives its minute unit back (D4): peek counts the admitted only', async () => {
        const quota = await kind.build(resolvePlanLimits({ marketData: { free: { perDay: 3 } } }));
        const account = accountOn('free');
        await admit(quota, account, 3);
        for (let i = 0; i < 4; i++) {
          const refused = await quota.consume(account, 'marketData', NOW);
          expect(refused.allowed).toBe(false);
          expect(refused.headers).toMatchObject({ 'X-RateLimit-Limit': '3', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(DAY_END / 1000) });
        }
        expect(await quota.peek(account, 'marketData', NOW)).toEqual([minute(10, 3), day(3, 3)]);
        // Still refused in the next minute, whose minute stays unspent.
        expect((await quota.consume(account, 'marketData', NEXT_MINUTE)).allowed).toBe(false);
        expect(await quota.peek(account, 'marketData', NEXT_MINUTE)).toEqual([minute(10, 0, MINUTE_END + 60_000), day(3, 3)]);
      });

      maybe('unlimited windows are left out: enterprise market data has none, prediction pro only its minute', async () => {
        const quota = await kind.build();
        const enterprise = accountOn('enterprise', 'pro');
        const decisions = await admit(quota, enterprise, 5);
        expect(decisions.map((d) => d.headers)).toEqual(Array(5).fill({}));
        expect(await quota.peek(enterprise, 'marketData', NOW)).toEqual([]);

        await admit(quota, enterprise, 2, NOW, 'prediction');
        expect(await quota.peek(enterprise, 'prediction', NOW)).toEqual([minute(60, 2)]);
        // The products count apart: market data's consumes are not prediction's, and the reverse.
        const free = accountOn('free', 'pro');
        await admit(quota, free, 3);
        expect(await quota.peek(free, 'prediction', NOW)).toEqual([minute(60, 0)]);
        expect(await quota.peek(free, 'marketData', NOW)).toEqual([minute(10, 3), day(1_000, 3)]);
        // No prediction plan: nothing limited, nothing counted.
        expect(await quota.peek(accountOn('free', 'none'), 'prediction', NOW)).toEqual([]);
      });

      maybe('the next minute starts at 0 and the day keeps its count; the next day starts at 0', async () => {
        const quota = await kind.build();
        const account = accountOn('free');
        await admit(quota, account, 4);
        expect(await quota.peek(account, 'marketData', NEXT_MINUTE)).toEqual([minute(10, 0, MINUTE_END + 60_000), day(1_000, 4)]);

        const [next] = await admit(quota, account, 1, NEXT_MINUTE);
        expect(next!.headers['X-RateLimit-Remaining']).toBe('9');
        expect(await quota.peek(account, 'marketData', NEXT_MINUTE)).toEqual([minute(10, 1, MINUTE_END + 60_000), day(1_000, 5)]);
        expect(await quota.peek(account, 'marketData', NOW + 86_400_000)).toEqual([
          minute(10, 0, MINUTE_END + 86_400_000),
          day(1_000, 0, DAY_END + 86_400_000),
        ]);
      });
    });

    describe(`Redis quota (days in ${suite.engine.name})`, () => {
      redisMaybe("a day Redis lost is read from the database's day count", async () => {
        const quota = await redisQuota();
        const account = accountOn('free');
        await admit(quota, account, 6);
        await quota.flush();
        const dayIndex = Math.floor(NOW / 86_400_000);
        expect(await suite.store.quotaDays.get(account.id, 'marketData', dayIndex)).toBe(6);

        const redis = clients.at(-1)!;
        const dayKey = `${prefix}:{${account.id}}:marketData:d:${dayIndex}`;
        expect(await redis.del(dayKey)).toBe(1); // the key peek would read is gone
        expect(await quota.peek(account, 'marketData', NOW)).toEqual([minute(10, 6), day(1_000, 6)]);
        // Another instance, which never met this day, reads the same.
        expect(await (await redisQuota()).peek(account, 'marketData', NOW)).toEqual([minute(10, 6), day(1_000, 6)]);
        // Redis losing the minute as well: the minute starts again at 0, the day is still the database's.
        await redis.del(`${prefix}:{${account.id}}:marketData:m:${Math.floor(NOW / 60_000)}`);
        expect(await quota.peek(account, 'marketData', NOW)).toEqual([minute(10, 0), day(1_000, 6)]);
      });

      redisMaybe("two instances see each other's counts, and admit exactly the limit between them", async () => {
        const one = await redisQuota();
        const two = await redisQuota();
        const account = accountOn('free');
        await admit(one, account, 4);
        await admit(two, account, 3);
        expect(await one.peek(account, 'marketData', NOW)).toEqual([minute(10, 7), day(1_000, 7)]);
        expect(await two.peek(account, 'marketData', NOW)).toEqual([minute(10, 7), day(1_000, 7)]);

        const rest = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? one : two).consume(account, 'marketData', NOW)));
        expect(rest.filter((d) => d.allowed)).toHaveLength(3);
        expect(await one.peek(account, 'marketData', NOW)).toEqual([minute(10, 10), day(1_000, 10)]);
        expect(await two.peek(account, 'marketData', NEXT_MINUTE)).toEqual([minute(10, 0, MINUTE_END + 60_000), day(1_000, 10)]);
      });
    });
  });
});

describeOnEachEngine('durable quota counts', (suite) => {
  // One reading of the clock for the whole test (five readings could straddle a UTC midnight), and
  // the clock itself put at 23:59:50 UTC: the counts' windows and expiries agree either way.
  suite.maybe.each([
    ['the wall clock', undefined],
    ['at 23:59:50 UTC', Date.UTC(2030, 0, 15, 23, 59, 50)],
  ])('expired day counts are deleted by the quota itself (%s); a closed store is left alone, nothing thrown from a timer', async (_when, fakeNow) => {
    // Only Date is fake: the store's drivers and timers run as ever, while every Date.now() (the limiters' too) reads `fakeNow`.
    if (fakeNow !== undefined) fakeTheClock({ now: fakeNow, toFake: ['Date'] });
    try {
      const at = Date.now();
      const quota = createStoreQuota(suite.store.connection);
      quota.stop(); // its timer: this test calls what the timer calls
      const account = accountOn('free');
      await admit(quota, account, 3, at);
      expect((await quota.peek(account, 'marketData', at))[1]!.used).toBe(3);
      await deleteExpiredCounts(suite.store.connection, at); // nothing has expired yet
      expect((await quota.peek(account, 'marketData', at))[1]!.used).toBe(3);
      await deleteExpiredCounts(suite.store.connection, at + 2 * 86_400_000);
      expect((await quota.peek(account, 'marketData', at))[1]!.used).toBe(0);

      const closed = new BetterSqlite3(':memory:');
      closed.close();
      await expect(deleteExpiredCounts({ sqlite: closed }, at)).resolves.toBeUndefined();
    } finally {
      realClock();
    }
  });
});
