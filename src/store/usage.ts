/**
 * Usage records (issue 25): requests per UTC day, account, key, listener and route. Every instance
 * adds its own counts in batches; reads group them for the CLI's reports and an account's own view.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { chunks } from './batches.js';
import type { Database } from './tables.js';

/** What one instance counted since its last flush for one row of the table. */
export interface UsageDelta {
  day: string;
  accountId: string;
  keyId: string;
  listener: string;
  route: string;
  requests: number;
  lastAt: number;
}

export type UsageGrouping = 'day' | 'route' | 'key';

export interface UsageFilter {
  /** First UTC day included, `YYYY-MM-DD`. */
  sinceDay: string;
  accountId?: string;
  keyId?: string;
  /** Only these routes (the REST routes' ids, say). */
  routes?: readonly string[];
}

/** One group of a report: its day, route or key (with the key's account), the requests and the last one. */
export interface UsageGroup {
  day?: string;
  route?: string;
  keyId?: string;
  accountId?: string;
  requests: number;
  lastAt: number;
}

/** A caller of a route in the period: who (with the names the operator gave), how often, when last. */
export interface RouteCaller {
  route: string;
  accountId: string;
  accountName: string | null;
  keyId: string;
  keyName: string | null;
  requests: number;
  lastAt: number;
}

const COLUMNS_OF: Record<UsageGrouping, readonly ('day' | 'route' | 'key_id' | 'account_id')[]> = {
  day: ['day'],
  route: ['route'],
  key: ['key_id', 'account_id'],
};

// SUM over bigint is numeric on PostgreSQL (read as a string): cast back to bigint, read as a number.
const requestsSum = sql<number>`cast(sum(requests) as bigint)`.as('requests');
const lastAtMax = sql<number>`max(last_at)`.as('last_at');

const CONFLICT_COLUMNS = ['day', 'account_id', 'key_id', 'listener', 'route'] as const;
// Neither engine's max() of two values is the other's (greatest on PostgreSQL).
const LATER_LAST_AT = sql<number>`case when excluded.last_at > usage_days.last_at then excluded.last_at else usage_days.last_at end`;

/**
 * The upsert of one second's deltas. On SQLite each delta runs one statement prepared once, on the
 * raw handle, in one transaction: with 100 000 keys in rotation nearly every request makes a row of
 * its own, and building and parsing a 500-row INSERT cost 5 µs a row against 2 to 3 (Kysely's
 * values parser, and a new SQL text for the second's last part). Kysely's way is kept on
 * PostgreSQL (one round trip a part), and on SQLite while a transaction is open on the connection,
 * which a write of ours must not join.
 */
function createUsageWriter(db: Kysely<Database>, sqlite?: BetterSqlite3.Database): (deltas: readonly UsageDelta[]) => Promise<void> {
  const upsertOf = (rows: readonly UsageDelta[]) =>
    db
      .insertInto('usage_days')
      .values(
        rows.map((d) => ({
          day: d.day,
          account_id: d.accountId,
          key_id: d.keyId,
          listener: d.listener,
          route: d.route,
          requests: d.requests,
          last_at: d.lastAt,
        })),
      )
      .onConflict((oc) => oc.columns(CONFLICT_COLUMNS).doUpdateSet({ requests: sql`usage_days.requests + excluded.requests`, last_at: LATER_LAST_AT }));
  const viaKysely = (deltas: readonly UsageDelta[]) =>
    db.transaction().execute(async (trx) => {
      for (const batch of chunks(deltas)) await trx.executeQuery(upsertOf(batch).compile());
    });
  if (!sqlite) return viaKysely;

  const oneRow = upsertOf([{ day: '', accountId: '', keyId: '', listener: '', route: '', requests: 0, lastAt: 0 }]).compile();
  const upsert = sqlite.prepare(oneRow.sql);
  const writeAll = sqlite.transaction((deltas: readonly UsageDelta[]) => {
    for (const d of deltas) upsert.run(d.day, d.accountId, d.keyId, d.listener, d.route, d.requests, d.lastAt);
  });
  return async (deltas) => {
    if (sqlite.inTransaction) return viaKysely(deltas);
    writeAll(deltas);
  };
}

export function createUsageRepository(db: Kysely<Database>, sqlite?: BetterSqlite3.Database) {
  const write = createUsageWriter(db, sqlite);

  function filtered(filter: UsageFilter) {
    // Qualified: the callers' report joins tables that have an account_id of their own.
    let query = db.selectFrom('usage_days').where('usage_days.day', '>=', filter.sinceDay);
    if (filter.accountId !== undefined) query = query.where('usage_days.account_id', '=', filter.accountId);
    if (filter.keyId !== undefined) query = query.where('usage_days.key_id', '=', filter.keyId);
    if (filter.routes !== undefined) query = query.where('usage_days.route', 'in', filter.routes.length > 0 ? [...filter.routes] : ['']);
    return query;
  }

  return {
    /** Adds each delta to its row; several instances add their own, so this is a sum, never a set. */
    async add(deltas: readonly UsageDelta[]): Promise<void> {
      if (deltas.length > 0) await write(deltas);
    },

    /** Requests grouped by day, route or key (oldest day, busiest route or key first). */
    async report(filter: UsageFilter, by: UsageGrouping): Promise<UsageGroup[]> {
      const columns = COLUMNS_OF[by];
      let query = filtered(filter)
        .select([...columns, requestsSum, lastAtMax])
        .groupBy([...columns]);
      query = by === 'day' ? query.orderBy('day') : query.orderBy('requests', 'desc').orderBy(columns[0]!);
      const rows = await query.execute();
      return rows.map((row) => ({
        ...(row.day !== undefined ? { day: row.day } : {}),
        ...(row.route !== undefined ? { route: row.route } : {}),
        ...(row.key_id !== undefined ? { keyId: row.key_id, accountId: row.account_id } : {}),
        requests: Number(row.requests),
        lastAt: Number(row.last_at),
      }));
    },

    /** An account's requests per day and route (the account's own view), oldest day first. */
    async byDayAndRoute(accountId: string, sinceDay: string): Promise<{ day: string; route: string; requests: number }[]> {
      const rows = await filtered({ accountId, sinceDay })
        .select(['day', 'route', requestsSum])
        .groupBy(['day', 'route'])
        .orderBy('day')
        .orderBy('route')
        .execute();
      return rows.map((row) => ({ day: row.day, route: row.route, requests: Number(row.requests) }));
    },

    /** Per route, the keys (with their accounts) that called it in the period. */
    async callers(filter: UsageFilter): Promise<RouteCaller[]> {
      const rows = await filtered(filter)
        .leftJoin('accounts', 'accounts.id', 'usage_days.account_id')
        .leftJoin('api_keys', 'api_keys.id', 'usage_days.key_id')
        .select([
          'usage_days.route',
          'usage_days.account_id',
          'accounts.name as account_name',
          'usage_days.key_id',
          'api_keys.name as key_name',
          requestsSum,
          lastAtMax,
        ])
        .groupBy(['usage_days.route', 'usage_days.account_id', 'accounts.name', 'usage_days.key_id', 'api_keys.name'])
        .orderBy('route')
        .orderBy('requests', 'desc')
        .execute();
      return rows.map((row) => ({
        route: row.route,
        accountId: row.account_id,
        accountName: row.account_name,
        keyId: row.key_id,
        keyName: row.key_name,
        requests: Number(row.requests),
        lastAt: Number(row.last_at),
      }));
    },

    /** Deletes the days before `day` (retention). */
    async pruneBefore(day: string): Promise<number> {
      const result = await db.deleteFrom('usage_days').where('day', '<', day).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type UsageRepository = ReturnType<typeof createUsageRepository>;
