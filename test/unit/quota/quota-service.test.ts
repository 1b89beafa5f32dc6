/**
 * The quota service (src/quota/quota-service.ts) over counters in memory: both windows of D4,
 * minute first; a 429 spends neither window; the headers of the binding window; the counters,
 * one per product, plan, window and limit, created one at a time.
 */
import type { Account } from '../../../src/domain/account.js';
import { type CountKey, minuteCounter, type WindowCounter } from '../../../src/quota/counters.js';
import { PLAN_LIMITS, type PlanLimitTable } from '../../../src/quota/plans.js';
import { bindingHeaders, type CounterFactory, createQuotaService, limitedWindows, refusalHeaders } from '../../../src/quota/quota-service.js';

/** 2026-11-24 12:00:30.250 UTC: 29.75 s left in the minute, 11 h 59 min 29.75 s in the day. */
const NOW = Date.UTC(2026, 10, 24, 12, 0, 30, 250);
const MINUTE_END = Date.UTC(2026, 10, 24, 12, 1);
const DAY_END = Date.UTC(2026, 10, 25);

const account = (id: string, marketDataPlan: Account['marketDataPlan'] = 'free', predictionPlan: Account['predictionPlan'] = 'pro'): Account => ({
  id,
  name: id,
  marketDataPlan,
  predictionPlan,
});

/** A table with small limits: free market data 3 a minute and 5 a day; prediction pro 2 a minute, no day limit. */
const TABLE: PlanLimitTable = {
  marketData: {
    free: { perMinute: 3, perDay: 5, subscriptions: 1 },
    pro: { perMinute: 4, perDay: 4, subscriptions: 1 },
    enterprise: { perMinute: null, perDay: null, subscriptions: 1 },
  },
  prediction: { none: { perMinute: null, perDay: null, subscriptions: 0 }, pro: { perMinute: 2, perDay: null, subscriptions: 1 } },
};

/** Counters in memory, each call recorded: which counter (its prefix) was asked what, with which TTL. */
function recordingFactory() {
  const created: string[] = [];
  const calls: string[] = [];
  const factory: CounterFactory = async (window, prefix, limit) => {
    created.push(`${window} ${prefix} ${limit}`);
    const inner = minuteCounter(limit);
    const counter: WindowCounter = {
      consume: (key: CountKey, ttl: number) => {
        calls.push(`consume ${prefix} ${key.owner}:${key.window} ttl=${ttl}`);
        return inner.consume(key, ttl);
      },
      refund: (key: CountKey, ttl: number) => {
        calls.push(`refund ${prefix} ${key.owner}:${key.window} ttl=${ttl}`);
        return inner.refund(key, ttl);
      },
      spent: (key: CountKey) => inner.spent(key),
    };
    return counter;
  };
  return { factory, created, calls };
}

describe('consume', () => {
  it('spends one unit of each limited window, minute first, keyed by the account and the window, with a TTL a second past its end', async () => {
    const { factory, calls } = recordingFactory();
    const quota = createQuotaService(factory, TABLE);
    expect((await quota.consume(account('acc_1'), 'marketData', NOW)).allowed).toBe(true);
    const minuteIndex = Math.floor(NOW / 60_000);
    const dayIndex = Math.floor(NOW / 86_400_000);
    expect(calls).toEqual([
      `consume q_marketData_free_minute_3 acc_1:${minuteIndex} ttl=${30 + 1}`, // 29.75 s left, rounded up, plus one
      `consume q_marketData_free_day_5 acc_1:${dayIndex} ttl=${Math.ceil((DAY_END - NOW) / 1000) + 1}`,
    ]);
  });

  it('answers with the headers of the binding window: the fewest units left, else the one that resets first', async () => {
    const quota = createQuotaService(recordingFactory().factory, TABLE);
    // Free: 3 a minute, 5 a day. First request: 2 left this minute, 4 today: the minute binds.
    expect(await quota.consume(account('acc_2'), 'marketData', NOW)).toEqual({
      allowed: true,
      headers: { 'X-RateLimit-Limit': '3', 'X-RateLimit-Remaining': '2', 'X-RateLimit-Reset': String(MINUTE_END / 1000) },
    });
    // Next minute, two more: 1 left this minute, 2 today... then the day has fewer left than the minute.
    const later = NOW + 60_000;
    await quota.consume(account('acc_2'), 'marketData', later);
    await quota.consume(account('acc_2'), 'marketData', later + 1);
    expect((await quota.consume(account('acc_2'), 'marketData', NOW + 120_000)).headers).toEqual({
      'X-RateLimit-Limit': '5',
      'X-RateLimit-Remaining': '1',
      'X-RateLimit-Reset': String(DAY_END / 1000),
    });
    // Pro: 4 a minute and 4 a day, a tie on every request: the minute, which resets first.
    expect((await quota.consume(account('acc_3', 'pro'), 'marketData', NOW)).headers).toEqual({
      'X-RateLimit-Limit': '4',
      'X-RateLimit-Remaining': '3',
      'X-RateLimit-Reset': String(MINUTE_END / 1000),
    });
  });

  it('refused by the minute: 429 headers, and the day is not spent', async () => {
    const { factory, calls } = recordingFactory();
    const quota = createQuotaService(factory, TABLE);
    const who = account('acc_4');
    for (let i = 0; i < 3; i++) expect((await quota.consume(who, 'marketData', NOW)).allowed).toBe(true);
    calls.length = 0;
    expect(await quota.consume(who, 'marketData', NOW)).toEqual({
      allowed: false,
      headers: { 'X-RateLimit-Limit': '3', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(MINUTE_END / 1000), 'Retry-After': '30' },
    });
    expect(calls).toEqual([`consume q_marketData_free_minute_3 acc_4:${Math.floor(NOW / 60_000)} ttl=31`]);
    expect((await quota.peek(who, 'marketData', NOW)).map((c) => c.used)).toEqual([3, 3]);
  });

  it('refused by the day: its minute unit is given back, so a 429 spends neither window', async () => {
    const quota = createQuotaService(recordingFactory().factory, TABLE);
    const who = account('acc_5');
    // Five on the day, over two minutes (the minute allows three).
    for (let i = 0; i < 5; i++) expect((await quota.consume(who, 'marketData', NOW + (i < 3 ? 0 : 60_000))).allowed).toBe(true);
    const refused = await quota.consume(who, 'marketData', NOW + 60_000);
    expect(refused).toEqual({
      allowed: false,
      headers: {
        'X-RateLimit-Limit': '5',
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': String(DAY_END / 1000),
        'Retry-After': String(Math.ceil((DAY_END - NOW - 60_000) / 1000)),
      },
    });
    expect((await quota.peek(who, 'marketData', NOW + 60_000)).map((c) => [c.window, c.used])).toEqual([
      ['minute', 2],
      ['day', 5],
    ]);
  });

  it('counts each account, product and window apart', async () => {
    const quota = createQuotaService(recordingFactory().factory, TABLE);
    for (let i = 0; i < 3; i++) await quota.consume(account('acc_6'), 'marketData', NOW);
    expect((await quota.consume(account('acc_6'), 'marketData', NOW)).allowed).toBe(false);
    expect((await quota.consume(account('acc_7'), 'marketData', NOW)).allowed).toBe(true);
    expect((await quota.consume(account('acc_6'), 'prediction', NOW)).allowed).toBe(true);
    expect((await quota.consume(account('acc_6'), 'marketData', NOW + 60_000)).allowed).toBe(true);
  });

  it('an unlimited plan is allowed without rate-limit headers and spends no counter', async () => {
    const { factory, created } = recordingFactory();
    const quota = createQuotaService(factory, TABLE);
    for (let i = 0; i < 10; i++) expect(await quota.consume(account('acc_8', 'enterprise', 'none'), 'marketData', NOW)).toEqual({ allowed: true, headers: {} });
    expect(await quota.consume(account('acc_8', 'enterprise', 'none'), 'prediction', NOW)).toEqual({ allowed: true, headers: {} });
    expect(created).toEqual([]);
    expect(await quota.peek(account('acc_8', 'enterprise', 'none'), 'marketData', NOW)).toEqual([]);
  });

  it('uses the default plan table when given none', async () => {
    const quota = createQuotaService(recordingFactory().factory);
    const headers = (await quota.consume(account('acc_9'), 'marketData', NOW)).headers;
    expect(headers['X-RateLimit-Limit']).toBe(String(PLAN_LIMITS.marketData.free.perMinute));
  });
});

describe('the counters', () => {
  it('one per product, plan, window and limit, created once, one at a time', async () => {
    const { created } = recordingFactory();
    let running = 0;
    let most = 0;
    const factory: CounterFactory = async (window, prefix, limit) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setImmediate(resolve));
      running--;
      created.push(`${window} ${prefix} ${limit}`);
      return minuteCounter(limit);
    };
    const quota = createQuotaService(factory, TABLE);
    await Promise.all([
      quota.consume(account('a'), 'marketData', NOW),
      quota.consume(account('b'), 'marketData', NOW),
      quota.consume(account('c', 'pro'), 'marketData', NOW),
      quota.consume(account('d'), 'prediction', NOW),
    ]);
    await quota.consume(account('a'), 'marketData', NOW + 1);
    expect(most).toBe(1);
    expect(created.sort()).toEqual([
      'day q_marketData_free_day_5 5',
      'day q_marketData_pro_day_4 4',
      'minute q_marketData_free_minute_3 3',
      'minute q_marketData_pro_minute_4 4',
      'minute q_prediction_pro_minute_2 2',
    ]);
  });

  it('a counter whose creation failed is created again on the next request', async () => {
    let attempts = 0;
    const factory: CounterFactory = async (_window, _prefix, limit) => {
      attempts++;
      if (attempts === 1) throw new Error('relation "quota_counts" could not be created');
      return minuteCounter(limit);
    };
    const quota = createQuotaService(factory, TABLE);
    await expect(quota.consume(account('acc_10'), 'prediction', NOW)).rejects.toThrow('could not be created');
    expect((await quota.consume(account('acc_10'), 'prediction', NOW)).allowed).toBe(true);
    expect((await quota.consume(account('acc_10'), 'prediction', NOW)).allowed).toBe(true);
    expect(attempts).toBe(2);
  });
});

describe('peek', () => {
  it("this minute's and today's counts, spending nothing, never above the limit", async () => {
    const { factory, calls } = recordingFactory();
    const quota = createQuotaService(factory, TABLE);
    const who = account('acc_11');
    expect(await quota.peek(who, 'marketData', NOW)).toEqual([
      { window: 'minute', limit: 3, used: 0, endsAt: MINUTE_END },
      { window: 'day', limit: 5, used: 0, endsAt: DAY_END },
    ]);
    for (let i = 0; i < 5; i++) await quota.consume(who, 'marketData', NOW); // two refused by the minute, counted there
    calls.length = 0;
    expect((await quota.peek(who, 'marketData', NOW)).map((c) => c.used)).toEqual([3, 3]);
    expect(calls).toEqual([]);
    expect((await quota.peek(who, 'prediction', NOW)).map((c) => [c.window, c.limit])).toEqual([['minute', 2]]);
  });
});

describe('the headers', () => {
  it('Retry-After is the seconds to the end of the window, rounded up, at least one', () => {
    expect(refusalHeaders(10, 60_000, 0)).toEqual({ 'X-RateLimit-Limit': '10', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '60', 'Retry-After': '60' });
    expect(refusalHeaders(10, 60_000, 58_500)['Retry-After']).toBe('2');
    expect(refusalHeaders(10, 60_000, 59_999)['Retry-After']).toBe('1');
    expect(refusalHeaders(10, 60_000, 60_000)['Retry-After']).toBe('1');
    expect(refusalHeaders(10, 60_500, 0)['X-RateLimit-Reset']).toBe('61');
  });

  it('the binding window is the one with the fewest left; on a tie the earlier end; none without windows', () => {
    const minute = { window: 'minute' as const, limit: 10, remaining: 4, endsAt: 60_000 };
    const day = { window: 'day' as const, limit: 100, remaining: 3, endsAt: 86_400_000 };
    expect(bindingHeaders([minute, day])).toEqual({ 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': '3', 'X-RateLimit-Reset': '86400' });
    expect(bindingHeaders([day, { ...minute, remaining: 3 }])).toEqual({ 'X-RateLimit-Limit': '10', 'X-RateLimit-Remaining': '3', 'X-RateLimit-Reset': '60' });
    expect(bindingHeaders([{ ...minute, endsAt: 60_400 }])['X-RateLimit-Reset']).toBe('61');
    expect(bindingHeaders([])).toEqual({});
  });

  it('limitedWindows lists the minute, then the day, leaving out the unlimited', () => {
    expect(limitedWindows({ perMinute: 1, perDay: 2, subscriptions: 0 })).toEqual([
      ['minute', 1],
      ['day', 2],
    ]);
    expect(limitedWindows({ perMinute: null, perDay: 2, subscriptions: 0 })).toEqual([['day', 2]]);
    expect(limitedWindows({ perMinute: 1, perDay: null, subscriptions: 0 })).toEqual([['minute', 1]]);
    expect(limitedWindows({ perMinute: null, perDay: null, subscriptions: 0 })).toEqual([]);
  });
});
