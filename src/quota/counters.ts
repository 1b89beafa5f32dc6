/**
 * Where window counts live. Embedded mode: the minute in process memory, the day in the
 * SQLite file (a restart keeps it). PostgreSQL mode without Redis: the day in PostgreSQL.
 * The counting itself is rate-limiter-flexible's; a counter is one limiter per limit value.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import type { StoreConnection } from '../store/index.js';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, RateLimiterSQLite, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface CountResult {
  allowed: boolean;
  consumed: number;
}

/** A counter of one window for one limit value; keys carry the window index. */
export interface WindowCounter {
  consume(key: string, ttlSeconds: number): Promise<CountResult>;
  refund(key: string, ttlSeconds: number): Promise<void>;
  /** How much of `key` is spent, spending nothing (the dashboard's Usage page). */
  spent(key: string): Promise<number>;
}

function wrap(limiter: RateLimiterAbstract): WindowCounter {
  return {
    async consume(key, ttlSeconds) {
      try {
        const res = await limiter.consume(key, 1, { customDuration: ttlSeconds });
        return { allowed: true, consumed: res.consumedPoints };
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return { allowed: false, consumed: rejection.consumedPoints };
        throw rejection;
      }
    },
    async refund(key, ttlSeconds) {
      await limiter.reward(key, 1, { customDuration: ttlSeconds });
    },
    async spent(key) {
      return (await limiter.get(key))?.consumedPoints ?? 0;
    },
  };
}

export function memoryCounter(prefix: string, limit: number): WindowCounter {
  return wrap(new RateLimiterMemory({ keyPrefix: prefix, points: limit, duration: 60 }));
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
