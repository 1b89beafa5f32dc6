/**
 * The windows of D4 and where their counts live. A window is fixed and aligned to the UTC clock
 * (the minute starts at second 0, the day at 00:00 UTC); its index since the epoch is part of a
 * count's key, so windows never overlap. Embedded mode: the minute in process memory, the day in the
 * SQLite file (a restart keeps it). PostgreSQL mode without Redis: the day in PostgreSQL.
 * The durable counting is rate-limiter-flexible's; a counter is one limiter per limit value.
 * The minute in process is a plain count an account (`minuteCounter`), for its memory.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import type { StoreConnection } from '../store/index.js';
import { RateLimiterPostgres, RateLimiterRes, RateLimiterSQLite, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { DAY_MS, MINUTE_MS } from '../domain/time.js';

export type WindowName = 'minute' | 'day';

const WINDOW_MS: Record<WindowName, number> = { minute: MINUTE_MS, day: DAY_MS };

/** The window `now` is in. */
interface WindowSpan {
  /** Sequence number of the window since the epoch: part of the counter key, so windows never overlap. */
  index: number;
  endsAt: number;
}

export function windowAt(name: WindowName, now: number): WindowSpan {
  const size = WINDOW_MS[name];
  const index = Math.floor(now / size);
  return { index, endsAt: (index + 1) * size };
}

export interface CountResult {
  allowed: boolean;
  consumed: number;
}

/** What is counted: an account's units in one window (its index since the epoch). */
export interface CountKey {
  owner: string;
  window: number;
}

/** A counter of one window for one limit value. */
export interface WindowCounter {
  consume(key: CountKey, ttlSeconds: number): Promise<CountResult>;
  refund(key: CountKey, ttlSeconds: number): Promise<void>;
  /** How much of `key` is spent, spending nothing (the dashboard's Usage page). */
  spent(key: CountKey): Promise<number>;
}

/** A count's key in a store: the window's index in it, so windows never overlap. */
export const keyText = (key: CountKey): string => `${key.owner}:${key.window}`;

function wrap(limiter: RateLimiterAbstract): WindowCounter {
  return {
    async consume(key, ttlSeconds) {
      try {
        const res = await limiter.consume(keyText(key), 1, { customDuration: ttlSeconds });
        return { allowed: true, consumed: res.consumedPoints };
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return { allowed: false, consumed: rejection.consumedPoints };
        throw rejection;
      }
    },
    async refund(key, ttlSeconds) {
      await limiter.reward(keyText(key), 1, { customDuration: ttlSeconds });
    },
    async spent(key) {
      return (await limiter.get(keyText(key)))?.consumedPoints ?? 0;
    },
  };
}

/**
 * Counts in process memory: a number an account, in a map a window. rate-limiter-flexible's memory
 * store keeps a record, a timer and a key string a count (485 bytes; for 100 000 accounts in one
 * minute, 48 MB of heap, and 112 MB of RSS while they were made). Windows are fixed (D4), so a
 * window's counts are never read once the next one is over, and go together: no timer, no sweep,
 * and the account's id (the cached account's own string) is the whole key.
 */
export function minuteCounter(limit: number): WindowCounter {
  const windows = new Map<number, Map<string, number>>();
  let newest = Number.NEGATIVE_INFINITY;
  const countsOf = (window: number): Map<string, number> => {
    if (window > newest) {
      newest = window;
      // A key lives a second past its window's end: the window before the newest is kept for that.
      for (const old of windows.keys()) if (old < newest - 1) windows.delete(old);
    }
    let counts = windows.get(window);
    if (!counts) {
      counts = new Map();
      windows.set(window, counts);
    }
    return counts;
  };
  return {
    async consume(key) {
      const counts = countsOf(key.window);
      const consumed = (counts.get(key.owner) ?? 0) + 1;
      counts.set(key.owner, consumed);
      return { allowed: consumed <= limit, consumed };
    },
    async refund(key) {
      const counts = countsOf(key.window);
      const counted = counts.get(key.owner) ?? 0;
      if (counted > 0) counts.set(key.owner, counted - 1);
    },
    async spent(key) {
      return windows.get(key.window)?.get(key.owner) ?? 0;
    },
  };
}

const TABLE = 'quota_counts';

function ready<T>(create: (cb: (err?: unknown) => void) => T): Promise<T> {
  return new Promise((resolve, reject) => {
    const limiter: T = create((err) => (err ? reject(err) : resolve(limiter)));
  });
}

export async function sqliteCounter(db: BetterSqlite3.Database, prefix: string, limit: number): Promise<WindowCounter> {
  const limiter = await ready(
    (cb) =>
      new RateLimiterSQLite(
        { storeClient: db, storeType: 'better-sqlite3', tableName: TABLE, keyPrefix: prefix, points: limit, duration: 86_400, clearExpiredByTimeout: false },
        cb,
      ),
  );
  return wrap(limiter);
}

/**
 * What PostgreSQL answers one of two `CREATE TABLE IF NOT EXISTS` run at the same moment, besides
 * the 23505 rate-limiter-flexible expects: 42710 (the primary key's name is taken; 6 of 800 such
 * statements here) or 42P07 (the table is there). Two instances taking their first metered
 * request together on a new database did that, and the request was answered 500.
 */
const CREATED_MEANWHILE = new Set(['42710', '42P07']);

export async function postgresCounter(pool: pg.Pool, prefix: string, limit: number): Promise<WindowCounter> {
  const create = () =>
    ready(
      (cb) =>
        new RateLimiterPostgres({ storeClient: pool, tableName: TABLE, keyPrefix: prefix, points: limit, duration: 86_400, clearExpiredByTimeout: false }, cb),
    );
  try {
    return wrap(await create());
  } catch (error) {
    // The other instance made the table: asked again, IF NOT EXISTS finds it.
    if (!CREATED_MEANWHILE.has((error as { code?: string }).code ?? '')) throw error;
    return wrap(await create());
  }
}

/**
 * Deletes the durable counts that expired before `before`. Done here rather than by the limiters'
 * own timer, which outlives a closed store (its DELETE then throws from a timer). Not critical: a
 * store that is closed, down or has no counts yet is left alone.
 */
export async function deleteExpiredCounts(connection: Pick<StoreConnection, 'sqlite' | 'pgPool'>, before: number) {
  try {
    if (connection.sqlite?.open) connection.sqlite.prepare(`DELETE FROM ${TABLE} WHERE expire < ?`).run(before);
    else if (connection.pgPool) await connection.pgPool.query(`DELETE FROM "${TABLE}" WHERE expire < $1`, [before]);
  } catch {
    // the table does not exist before the first count, or the store is unavailable: next time
  }
}
