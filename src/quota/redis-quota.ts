/**
 * Shared quotas for several instances (REDIS_URL): both windows of D4 are checked and spent in one
 * Lua script, so the count is exact across instances and a request refused by one window spends
 * neither. Redis holds the live counts; the day counts are also added to the database every
 * second, and a day Redis no longer knows (it restarted without persistence) is seeded from there.
 * A Redis that is down or hung fails fast (bounded command timeout, no offline queue): the caller
 * answers 503 rather than admitting unmetered traffic or making the client wait, and a refund
 * queued behind a consume that timed out takes back what it spends once a hung Redis resumes.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { createBatchedDeltas } from '../cluster/batched-deltas.js';
import type { Product } from '../domain/account.js';
import type { QuotaDayCount, QuotaDayRepository } from '../store/quota-days.js';
import { limitsFor, PLAN_LIMITS, type PlanLimitTable } from './plans.js';
import { bindingHeaders, limitedWindows, refusalHeaders, type QuotaService, type WindowCount, type WindowState } from './quota-service.js';
import { windowAt } from './counters.js';

/** Thrown when the shared counts cannot be reached: the edge answers 503. */
export class QuotaUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`shared quota store unavailable: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'QuotaUnavailableError';
  }
}

// KEYS: minute, day, receipt. ARGV: minute limit, day limit (-1: none), minute TTL, day TTL (ms).
// TTLs are relative, not absolute: a clock skew between this host and Redis must not expire a
// window's key early (the key names the window, so living a little longer is harmless).
// Returns {admitted 0|1, refused by 0 none|1 minute|2 day, minute count, day count}.
/** How long a consume's receipt is kept: its refund, if any, runs right after it on the same connection. */
const RECEIPT_TTL_MS = 10_000;

const CONSUME_SCRIPT = `
local ml = tonumber(ARGV[1])
local dl = tonumber(ARGV[2])
local m = tonumber(redis.call('GET', KEYS[1]) or '0')
local d = tonumber(redis.call('GET', KEYS[2]) or '0')
if ml >= 0 and m >= ml then return {0, 1, m, d} end
if dl >= 0 and d >= dl then return {0, 2, m, d} end
if ml >= 0 then
  m = redis.call('INCR', KEYS[1])
  if m == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
end
if dl >= 0 then
  d = redis.call('INCR', KEYS[2])
  if d == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[4]) end
end
redis.call('SET', KEYS[3], (ml >= 0 and 'm' or '') .. (dl >= 0 and 'd' or ''), 'PX', ${RECEIPT_TTL_MS})
return {1, 0, m, d}
`;

/**
 * Takes back what a consume spent, if it ran and admitted (its receipt says which windows). Sent
 * on the same connection right after a consume whose answer never came (Redis hung): Redis runs
 * commands of a connection in order, so when it resumes, the consume runs and this right after it.
 */
const REFUND_SCRIPT = `
local spent = redis.call('GET', KEYS[3])
if not spent then return 0 end
redis.call('DEL', KEYS[3])
if string.find(spent, 'm') and redis.call('EXISTS', KEYS[1]) == 1 then redis.call('DECR', KEYS[1]) end
if string.find(spent, 'd') and redis.call('EXISTS', KEYS[2]) == 1 then redis.call('DECR', KEYS[2]) end
return 1
`;

const TTL_MARGIN_MS = 5_000;

type ConsumeResult = [admitted: number, refusedBy: number, minute: number, day: number];

interface QuotaRedis extends Redis {
  mgwConsumeQuota(minuteKey: string, dayKey: string, receiptKey: string, ml: number, dl: number, mTtlMs: number, dTtlMs: number): Promise<ConsumeResult>;
  mgwRefundQuota(minuteKey: string, dayKey: string, receiptKey: string): Promise<number>;
}

interface RedisQuotaOptions {
  redis: Redis;
  days: QuotaDayRepository;
  logger: Logger;
  /** How often admitted day counts are added to the database (default 1 s). */
  flushMs?: number;
  keyPrefix?: string;
  limits?: PlanLimitTable;
}

interface RedisQuota extends QuotaService {
  /** Writes pending day counts now (tests, shutdown). */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

// `{account}` is a hash tag: both keys of a script land on one Redis Cluster slot.
const windowKeysOf = (prefix: string, accountId: string, product: Product, minute: number, day: number) => ({
  minute: `${prefix}:{${accountId}}:${product}:m:${minute}`,
  day: `${prefix}:{${accountId}}:${product}:d:${day}`,
});
/** A consume's keys: its windows', and the receipt its refund reads. */
const consumeKeysOf = (prefix: string, accountId: string, product: Product, minute: number, day: number) => ({
  ...windowKeysOf(prefix, accountId, product, minute, day),
  receipt: `${prefix}:{${accountId}}:receipt:${randomUUID()}`,
});

/** The first time a process meets a day: if Redis lost it, put back what the database counted. */
function createDaySeeder(redis: Redis, days: QuotaDayRepository) {
  /** Days this process has checked Redis still knows; cleared on every reconnect (Redis may have restarted). */
  const seeded = new Set<string>();
  redis.on('ready', () => seeded.clear());
  return async function seedDay(dayKey: string, accountId: string, product: Product, dayIndex: number, ttlMs: number) {
    if (seeded.has(dayKey)) return;
    if ((await redis.exists(dayKey)) === 0) {
      const count = await days.get(accountId, product, dayIndex);
      if (count > 0) await redis.set(dayKey, String(count), 'PX', ttlMs, 'NX');
    }
    seeded.add(dayKey);
  };
}

/** The counts of an account's windows, without spending: a day Redis lost is read from the database. */
async function peekWindows(
  redis: Redis,
  days: QuotaDayRepository,
  limits: ReturnType<typeof limitsFor>,
  windowKeys: (accountId: string, product: Product, minute: number, day: number) => { minute: string; day: string },
  accountId: string,
  product: Product,
  now: number,
): Promise<WindowCount[]> {
  const spans = { minute: windowAt('minute', now), day: windowAt('day', now) };
  const k = windowKeys(accountId, product, spans.minute.index, spans.day.index);
  let counts: (string | null)[];
  try {
    counts = await redis.mget(k.minute, k.day);
  } catch (error) {
    throw new QuotaUnavailableError(error);
  }
  const result: WindowCount[] = [];
  for (const [window, limit] of limitedWindows(limits)) {
    const live = counts[window === 'minute' ? 0 : 1];
    // A day Redis lost (restarted without persistence) is still counted in the database.
    const used = live != null ? Number(live) : window === 'day' ? await days.get(accountId, product, spans.day.index) : 0;
    result.push({ window, limit, used: Math.min(used, limit), endsAt: spans[window].endsAt });
  }
  return result;
}

export function createRedisQuota(options: RedisQuotaOptions): RedisQuota {
  const { days, logger } = options;
  const prefix = options.keyPrefix ?? 'mgw:quota';
  const redis = options.redis as QuotaRedis;
  redis.defineCommand('mgwConsumeQuota', { numberOfKeys: 3, lua: CONSUME_SCRIPT });
  redis.defineCommand('mgwRefundQuota', { numberOfKeys: 3, lua: REFUND_SCRIPT });

  const seedDay = createDaySeeder(redis, days);
  const dayCounts = createBatchedDeltas<QuotaDayCount>({
    write: (batch) => days.add(batch),
    merge: (into, from) => {
      into.count += from.count;
    },
    intervalMs: options.flushMs ?? 1_000,
    onWriteFailed: (error, pending) => logger.warn({ err: error, pending }, 'day quota counts not saved; retrying'),
  });

  const windowKeys = (accountId: string, product: Product, minute: number, day: number) => windowKeysOf(prefix, accountId, product, minute, day);
  const keys = (accountId: string, product: Product, minute: number, day: number) => consumeKeysOf(prefix, accountId, product, minute, day);

  function record(accountId: string, product: Product, dayIndex: number): void {
    dayCounts.entry(`${product}|${dayIndex}`, accountId, () => ({ accountId, product, dayIndex, count: 0 })).count++;
  }

  return {
    async consume(account, product, now) {
      const limits = limitsFor(account, product, options.limits ?? PLAN_LIMITS);
      if (limits.perMinute === null && limits.perDay === null) return { allowed: true, headers: {} };
      const minute = windowAt('minute', now);
      const day = windowAt('day', now);
      const k = keys(account.id, product, minute.index, day.index);
      // A little past the window's end, whatever the clocks say.
      const ttl = (endsAt: number) => Math.max(1, endsAt - now) + TTL_MARGIN_MS;
      let result: ConsumeResult;
      try {
        if (limits.perDay !== null) await seedDay(k.day, account.id, product, day.index, ttl(day.endsAt));
        result = await redis.mgwConsumeQuota(k.minute, k.day, k.receipt, limits.perMinute ?? -1, limits.perDay ?? -1, ttl(minute.endsAt), ttl(day.endsAt));
      } catch (error) {
        // Answered 503, so nothing may stay spent: if the consume is still queued on a hung Redis,
        // the refund queued behind it takes back what it spends. On a closed connection neither runs.
        redis.mgwRefundQuota(k.minute, k.day, k.receipt).catch(() => undefined);
        throw new QuotaUnavailableError(error);
      }
      const [admitted, refusedBy, minuteCount, dayCount] = result.map(Number) as ConsumeResult;
      if (!admitted) {
        const [limit, span] = refusedBy === 1 ? [limits.perMinute!, minute] : [limits.perDay!, day];
        return { allowed: false, headers: refusalHeaders(limit, span.endsAt, now) };
      }
      if (limits.perDay !== null) record(account.id, product, day.index);
      const states: WindowState[] = [];
      if (limits.perMinute !== null)
        states.push({ window: 'minute', limit: limits.perMinute, remaining: Math.max(0, limits.perMinute - minuteCount), endsAt: minute.endsAt });
      if (limits.perDay !== null) states.push({ window: 'day', limit: limits.perDay, remaining: Math.max(0, limits.perDay - dayCount), endsAt: day.endsAt });
      return { allowed: true, headers: bindingHeaders(states) };
    },
    peek: async (account, product, now) =>
      peekWindows(redis, days, limitsFor(account, product, options.limits ?? PLAN_LIMITS), windowKeys, account.id, product, now),
    flush: dayCounts.flush,
    stop: dayCounts.stop,
  };
}
