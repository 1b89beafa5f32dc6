/**
 * Usage records: requests per UTC day, account, key, listener and route. Every instance
 * adds its own counts in batches; reads group them for the CLI's reports and an account's own view.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { chunks } from './batches.js';
import type { Database } from './tables.js';
import { createUsageReports } from './usage-reports.js';

export type { RouteCaller, UsageFilter, UsageGroup, UsageGrouping } from './usage-reports.js';

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

  return {
    /** Adds each delta to its row; several instances add their own, so this is a sum, never a set. */
    async add(deltas: readonly UsageDelta[]): Promise<void> {
      if (deltas.length > 0) await write(deltas);
    },

    ...createUsageReports(db),

    /** Deletes the days before `day` (retention). */
    async pruneBefore(day: string): Promise<number> {
      const result = await db.deleteFrom('usage_days').where('day', '<', day).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type UsageRepository = ReturnType<typeof createUsageRepository>;
