/** Prediction markets' metadata, and the markets as read (those with at least one observation). */
import type { Kysely } from 'kysely';
import type { PredictionMarket, PredictionMarketMeta } from '../domain/prediction.js';
import { chunks } from './batches.js';
import type { Database, PredictionMarketsTable } from './tables.js';

function toMarket(r: PredictionMarketsTable): PredictionMarket | undefined {
  if (r.prob === null || r.volume_24h === null || r.updated_at === null) return undefined;
  return {
    id: r.id,
    source: r.source,
    question: r.question,
    url: r.url,
    topic: r.topic,
    prob: r.prob,
    volume24h: r.volume_24h,
    updatedAt: r.updated_at,
    sourceMove24hPts: r.source_move_24h,
  };
}

export function createPredictionMarkets(db: Kysely<Database>) {
  return {
    async upsertMarkets(metas: readonly PredictionMarketMeta[]): Promise<void> {
      for (const batch of chunks(metas)) {
        await db
          .insertInto('prediction_markets')
          .values(batch.map((m) => ({ id: m.id, source: m.source, question: m.question, url: m.url, topic: m.topic })))
          .onConflict((oc) =>
            oc.column('id').doUpdateSet((eb) => ({
              source: eb.ref('excluded.source'),
              question: eb.ref('excluded.question'),
              url: eb.ref('excluded.url'),
              topic: eb.ref('excluded.topic'),
            })),
          )
          .execute();
      }
    },

    /** Markets that have at least one observation. */
    async listMarkets(): Promise<PredictionMarket[]> {
      const rows = await db.selectFrom('prediction_markets').selectAll().execute();
      return rows.flatMap((r) => toMarket(r) ?? []);
    },

    async marketsByIds(ids: readonly string[]): Promise<PredictionMarket[]> {
      if (ids.length === 0) return [];
      const rows = await db.selectFrom('prediction_markets').selectAll().where('id', 'in', ids).execute();
      return rows.flatMap((r) => toMarket(r) ?? []);
    },
  };
}
