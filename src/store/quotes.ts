/** The latest quote per symbol (variant A): an out-of-order quote never overwrites a newer one. */
import type { Kysely } from 'kysely';
import type { Quote } from '../domain/market.js';
import { chunks } from './batches.js';
import type { Database } from './tables.js';

export function createQuotes(db: Kysely<Database>) {
  return {
    /** Keeps the newest observation per symbol: an out-of-order quote never overwrites a newer one. */
    async upsertQuotes(quotes: readonly Quote[]): Promise<void> {
      for (const batch of chunks(quotes)) {
        await db
          .insertInto('quotes')
          .values(
            batch.map((q) => ({
              symbol: q.symbol,
              price: q.price,
              change_24h: q.change24h,
              volume_24h: q.volume24h,
              observed_at: q.observedAt,
            })),
          )
          .onConflict((oc) =>
            oc
              .column('symbol')
              .doUpdateSet((eb) => ({
                price: eb.ref('excluded.price'),
                change_24h: eb.ref('excluded.change_24h'),
                volume_24h: eb.ref('excluded.volume_24h'),
                observed_at: eb.ref('excluded.observed_at'),
              }))
              .where('quotes.observed_at', '<=', (eb) => eb.ref('excluded.observed_at')),
          )
          .execute();
      }
    },

    async listQuotes(): Promise<Quote[]> {
      const rows = await db.selectFrom('quotes').selectAll().execute();
      return rows.map((r) => ({
        symbol: r.symbol,
        price: r.price,
        change24h: r.change_24h,
        volume24h: r.volume_24h,
        observedAt: r.observed_at,
      }));
    },
  };
}
