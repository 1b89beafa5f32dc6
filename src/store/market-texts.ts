/** The texts of prediction markets the judge reads, with their price claims: written, read by id or a page at a time. */
import type { Kysely } from 'kysely';
import type { MarketText, PriceClaim } from '../domain/links.js';
import { chunks } from './batches.js';
import type { Database, PredictionMarketTextsTable } from './tables.js';

/** A market's texts as stored: `marketId` is `<venue>:<venue's id>`. */
export interface StoredMarketText {
  marketId: string;
  text: MarketText;
  /** Of the texts: a market is judged again only when it changes. */
  hash: string;
  claim: PriceClaim | null;
  updatedAt: number;
}

function toText(r: PredictionMarketTextsTable): StoredMarketText {
  const strike = r.strike_type === null ? null : { type: r.strike_type, floor: r.strike_floor, cap: r.strike_cap };
  return {
    marketId: r.market_id,
    text: {
      venue: r.venue,
      id: r.market_id.slice(r.market_id.indexOf(':') + 1),
      question: r.question,
      rules: r.rules,
      closeTime: r.close_time,
      expiryTime: r.expiry_time,
      yesSide: r.yes_side,
      strike,
      resolutionSource: r.resolution_source,
    },
    hash: r.text_hash,
    claim: r.claim === null ? null : (JSON.parse(r.claim) as PriceClaim),
    updatedAt: r.updated_at,
  };
}

function toRow(t: StoredMarketText): PredictionMarketTextsTable {
  const { text } = t;
  return {
    market_id: t.marketId,
    venue: text.venue,
    question: text.question,
    rules: text.rules,
    close_time: text.closeTime,
    expiry_time: text.expiryTime ?? null,
    yes_side: text.yesSide ?? null,
    strike_type: text.strike?.type ?? null,
    strike_floor: text.strike?.floor ?? null,
    strike_cap: text.strike?.cap ?? null,
    resolution_source: text.resolutionSource ?? null,
    text_hash: t.hash,
    claim_asset: t.claim?.asset ?? null,
    claim: t.claim === null ? null : JSON.stringify(t.claim),
    updated_at: t.updatedAt,
  };
}

export function createMarketTexts(db: Kysely<Database>) {
  return {
    /** Stores new or changed texts with their claims (replacing what was there). */
    async upsertTexts(texts: readonly StoredMarketText[]): Promise<void> {
      for (const batch of chunks(texts, 200)) {
        await db
          .insertInto('prediction_market_texts')
          .values(batch.map(toRow))
          .onConflict((oc) =>
            oc.column('market_id').doUpdateSet((eb) => ({
              venue: eb.ref('excluded.venue'),
              question: eb.ref('excluded.question'),
              rules: eb.ref('excluded.rules'),
              close_time: eb.ref('excluded.close_time'),
              expiry_time: eb.ref('excluded.expiry_time'),
              yes_side: eb.ref('excluded.yes_side'),
              strike_type: eb.ref('excluded.strike_type'),
              strike_floor: eb.ref('excluded.strike_floor'),
              strike_cap: eb.ref('excluded.strike_cap'),
              resolution_source: eb.ref('excluded.resolution_source'),
              text_hash: eb.ref('excluded.text_hash'),
              claim_asset: eb.ref('excluded.claim_asset'),
              claim: eb.ref('excluded.claim'),
              updated_at: eb.ref('excluded.updated_at'),
            })),
          )
          .execute();
      }
    },

    async textsByIds(ids: readonly string[]): Promise<StoredMarketText[]> {
      const out: StoredMarketText[] = [];
      for (const batch of chunks(ids)) {
        const rows = await db.selectFrom('prediction_market_texts').selectAll().where('market_id', 'in', batch).execute();
        out.push(...rows.map(toText));
      }
      return out;
    },

    /** Every stored text, a page at a time (the linker's index is rebuilt from them at start). */
    async *textPages(pageSize = 2_000): AsyncGenerator<StoredMarketText[]> {
      let after = '';
      for (;;) {
        const rows = await db.selectFrom('prediction_market_texts').selectAll().where('market_id', '>', after).orderBy('market_id').limit(pageSize).execute();
        if (rows.length === 0) return;
        yield rows.map(toText);
        after = rows.at(-1)!.market_id;
        if (rows.length < pageSize) return;
      }
    },

    /** The price claim of each market that makes one. */
    async claimsOf(ids: readonly string[]): Promise<Map<string, PriceClaim>> {
      const out = new Map<string, PriceClaim>();
      for (const batch of chunks(ids)) {
        const rows = await db
          .selectFrom('prediction_market_texts')
          .select(['market_id', 'claim'])
          .where('market_id', 'in', batch)
          .where('claim', 'is not', null)
          .execute();
        for (const r of rows) out.set(r.market_id, JSON.parse(r.claim!) as PriceClaim);
      }
      return out;
    },

    /** The markets whose price claim is about `asset`. */
    async marketIdsClaiming(asset: string): Promise<string[]> {
      const rows = await db.selectFrom('prediction_market_texts').select('market_id').where('claim_asset', '=', asset).orderBy('market_id').execute();
      return rows.map((r) => r.market_id);
    },
  };
}
