/** Asset markets' metadata (variant A): written in batches, listed by symbol. */
import type { Kysely } from 'kysely';
import type { MarketMeta, MarketType } from '../domain/market.js';
import { chunks } from './batches.js';
import type { Database } from './tables.js';

export function createMarketMetadata(db: Kysely<Database>) {
  return {
    async upsertMarkets(markets: readonly MarketMeta[]): Promise<void> {
      for (const batch of chunks(markets)) {
        await db
          .insertInto('markets')
          .values(
            batch.map((m) => ({
              symbol: m.symbol,
              name: m.name,
              type: m.type,
              source: m.source,
              stale_after_ms: m.staleAfterMs,
              halted: m.halted ? 1 : 0,
            })),
          )
          .onConflict((oc) =>
            oc.column('symbol').doUpdateSet((eb) => ({
              name: eb.ref('excluded.name'),
              type: eb.ref('excluded.type'),
              source: eb.ref('excluded.source'),
              stale_after_ms: eb.ref('excluded.stale_after_ms'),
              halted: eb.ref('excluded.halted'),
            })),
          )
          .execute();
      }
    },

    async listMarkets(): Promise<MarketMeta[]> {
      const rows = await db.selectFrom('markets').selectAll().orderBy('symbol').execute();
      return rows.map((r) => ({
        symbol: r.symbol,
        name: r.name,
        type: r.type as MarketType,
        source: r.source,
        staleAfterMs: r.stale_after_ms,
        halted: r.halted === 1,
      }));
    },
  };
}
