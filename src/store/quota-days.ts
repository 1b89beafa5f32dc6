/** Durable day quota counts (Redis mode): added to in batches, read back when Redis has lost a day. */
import { type Kysely, sql } from 'kysely';
import type { Database } from './tables.js';

export interface QuotaDayCount {
  accountId: string;
  product: string;
  dayIndex: number;
  count: number;
}

export function createQuotaDayRepository(db: Kysely<Database>) {
  return {
    /** Adds each delta to its day's count (several instances add their own). */
    async add(deltas: readonly QuotaDayCount[]): Promise<void> {
      if (deltas.length === 0) return;
      await db.transaction().execute(async (trx) => {
        for (const d of deltas) {
          await trx
            .insertInto('quota_days')
            .values({ account_id: d.accountId, product: d.product, day_index: d.dayIndex, count: d.count })
            .onConflict((oc) => oc.columns(['account_id', 'product', 'day_index']).doUpdateSet({ count: sql`quota_days.count + excluded.count` }))
            .execute();
        }
      });
    },

    async get(accountId: string, product: string, dayIndex: number): Promise<number> {
      const row = await db
        .selectFrom('quota_days')
        .select('count')
        .where('account_id', '=', accountId)
        .where('product', '=', product)
        .where('day_index', '=', dayIndex)
        .executeTakeFirst();
      return row?.count ?? 0;
    },

    async pruneBefore(dayIndex: number): Promise<void> {
      await db.deleteFrom('quota_days').where('day_index', '<', dayIndex).execute();
    },
  };
}

export type QuotaDayRepository = ReturnType<typeof createQuotaDayRepository>;
