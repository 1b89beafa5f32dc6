/**
 * Market links (docs/links.md): the texts the judge reads, its verdicts, the operator's decisions.
 * A pair is one row, its ids ordered (`a_id` < `b_id`), its evidence written from `a`'s side; a
 * reader asking from `b`'s side gets it turned round. An operator's decision wins over the judge's.
 */
import type { Kysely } from 'kysely';
import type { LinkDecider, LinkEvidence, LinkImplication, LinkRelation, LinkVerdict, MarketText, PriceClaim } from '../domain/links.js';
import { chunks } from './batches.js';
import type { Database, MarketLinksTable, PredictionMarketTextsTable } from './tables.js';

/** A market's texts as stored: `marketId` is `<venue>:<venue's id>`. */
export interface StoredMarketText {
  marketId: string;
  text: MarketText;
  /** Of the texts: a market is judged again only when it changes. */
  hash: string;
  claim: PriceClaim | null;
  updatedAt: number;
}

/** A link as one market sees it: `evidence[].a` is that market's side. */
export interface MarketLinkView {
  marketId: string;
  otherId: string;
  relation: LinkRelation;
  implies: LinkImplication | null;
  evidence: LinkEvidence[];
  basisRisk: string[];
  missing: string[];
  decidedBy: LinkDecider;
  decidedAt: number;
}

/** A pair in the store's order, and whether it was turned round to get there. */
export function orderedPair(x: string, y: string): { a: string; b: string; swapped: boolean } {
  return x < y ? { a: x, b: y, swapped: false } : { a: y, b: x, swapped: true };
}

const SWAPPED_IMPLICATION: Record<LinkImplication, LinkImplication> = { a_implies_b: 'b_implies_a', b_implies_a: 'a_implies_b' };

/** The same verdict written from the other market's side. */
export function swapSides(verdict: LinkVerdict): LinkVerdict {
  return {
    ...verdict,
    implies: verdict.implies && SWAPPED_IMPLICATION[verdict.implies],
    evidence: verdict.evidence.map((e) => ({ ...e, a: e.b, b: e.a })),
  };
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

type JudgedRow = MarketLinksTable;
interface DecisionRow {
  a_id: string;
  b_id: string;
  relation: string;
  decided_at: number;
}

/** One pair's link as `marketId` sees it: the operator's decision over the judge's verdict; none when the pair is `different`. */
function viewOf(marketId: string, judged: JudgedRow | undefined, decision: DecisionRow | undefined, keepRejected = false): MarketLinkView | undefined {
  const row = judged ?? decision;
  if (!row) return undefined;
  const relation = (decision?.relation ?? judged!.relation) as LinkRelation;
  if (relation === 'different' && !keepRejected) return undefined;
  const stored: LinkVerdict = judged
    ? {
        relation,
        implies: (judged.implies as LinkImplication | null) ?? undefined,
        evidence: JSON.parse(judged.evidence) as LinkEvidence[],
        basisRisk: JSON.parse(judged.basis_risk) as string[],
        missing: JSON.parse(judged.missing) as string[],
      }
    : { relation, evidence: [], basisRisk: [], missing: [] };
  // An operator who says `related` keeps the judge's implication only if the judge also said related.
  if (decision && (decision.relation !== 'related' || judged?.relation !== 'related')) stored.implies = undefined;
  const asSeen = row.a_id === marketId ? stored : swapSides(stored);
  return {
    marketId,
    otherId: row.a_id === marketId ? row.b_id : row.a_id,
    relation,
    implies: asSeen.implies ?? null,
    evidence: asSeen.evidence,
    basisRisk: asSeen.basisRisk,
    missing: asSeen.missing,
    decidedBy: decision ? 'operator' : (judged!.decided_by as LinkDecider),
    decidedAt: decision ? decision.decided_at : judged!.decided_at,
  };
}

const pairKey = (a: string, b: string) => `${a}\n${b}`;

export function createMarketLinkRepository(db: Kysely<Database>) {
  /** Rows of `table` that involve any of `ids`, on either side. */
  async function rowsInvolving<T extends 'market_links' | 'market_link_decisions'>(table: T, ids: readonly string[]) {
    const rows: (T extends 'market_links' ? JudgedRow : DecisionRow)[] = [];
    for (const batch of chunks(ids)) {
      const found = await db
        .selectFrom(table as 'market_links')
        .selectAll()
        .where((eb) => eb.or([eb('a_id', 'in', batch), eb('b_id', 'in', batch)]))
        .execute();
      rows.push(...(found as never[]));
    }
    return rows;
  }

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

    /**
     * The judge's new verdicts on `marketId`: every stored verdict involving it is replaced, in one
     * transaction (a pair now `different`, or no longer a candidate, loses its row).
     */
    async replaceVerdicts(marketId: string, verdicts: readonly { otherId: string; verdict: LinkVerdict; decidedBy: LinkDecider }[], at: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('market_links')
          .where((eb) => eb.or([eb('a_id', '=', marketId), eb('b_id', '=', marketId)]))
          .execute();
        const kept = verdicts.filter((v) => v.verdict.relation !== 'different');
        for (const batch of chunks(kept)) {
          await trx
            .insertInto('market_links')
            .values(
              batch.map(({ otherId, verdict, decidedBy }) => {
                const { a, b, swapped } = orderedPair(marketId, otherId);
                const v = swapped ? swapSides(verdict) : verdict;
                return {
                  a_id: a,
                  b_id: b,
                  relation: v.relation,
                  implies: v.implies ?? null,
                  evidence: JSON.stringify(v.evidence),
                  basis_risk: JSON.stringify(v.basisRisk),
                  missing: JSON.stringify(v.missing),
                  decided_by: decidedBy,
                  decided_at: at,
                };
              }),
            )
            .execute();
        }
      });
    },

    /** The links of each market (decisions over verdicts, `different` left out), as each sees them. */
    async linksOf(marketIds: readonly string[]): Promise<Map<string, MarketLinkView[]>> {
      const [judged, decided] = await Promise.all([rowsInvolving('market_links', marketIds), rowsInvolving('market_link_decisions', marketIds)]);
      const asked = new Set(marketIds);
      const decisions = new Map(decided.map((d) => [pairKey(d.a_id, d.b_id), d]));
      const judgedPairs = new Map(judged.map((j) => [pairKey(j.a_id, j.b_id), j]));
      const out = new Map<string, MarketLinkView[]>(marketIds.map((id) => [id, []]));
      for (const key of new Set([...judgedPairs.keys(), ...decisions.keys()])) {
        for (const side of key.split('\n')) {
          if (!asked.has(side)) continue;
          const view = viewOf(side, judgedPairs.get(key), decisions.get(key));
          if (view) out.get(side)!.push(view);
        }
      }
      return out;
    },

    /** Every link (from its `a` side), optionally of some relations only (`different`: the pairs an operator rejected). */
    async listLinks(relations?: readonly LinkRelation[]): Promise<MarketLinkView[]> {
      const [judged, decided] = await Promise.all([
        db.selectFrom('market_links').selectAll().execute(),
        db.selectFrom('market_link_decisions').selectAll().execute(),
      ]);
      const decisions = new Map(decided.map((d) => [pairKey(d.a_id, d.b_id), d]));
      const judgedPairs = new Map(judged.map((j) => [pairKey(j.a_id, j.b_id), j]));
      const views: MarketLinkView[] = [];
      for (const key of new Set([...judgedPairs.keys(), ...decisions.keys()])) {
        const [a] = key.split('\n') as [string];
        const view = viewOf(a, judgedPairs.get(key), decisions.get(key), relations?.includes('different'));
        if (view && (!relations || relations.includes(view.relation))) views.push(view);
      }
      return views.sort((x, y) => x.marketId.localeCompare(y.marketId) || x.otherId.localeCompare(y.otherId));
    },

    /**
     * The pairs that settle together (`same` or `inverse`, an operator's decision over the judge's),
     * ids and relation only: what the prediction events are built from on every request.
     */
    async settlingPairs(): Promise<{ a: string; b: string; relation: 'same' | 'inverse' }[]> {
      const [judged, decided] = await Promise.all([
        db.selectFrom('market_links').select(['a_id', 'b_id', 'relation']).where('relation', 'in', ['same', 'inverse']).execute(),
        db.selectFrom('market_link_decisions').select(['a_id', 'b_id', 'relation']).execute(),
      ]);
      const relations = new Map(judged.map((r) => [pairKey(r.a_id, r.b_id), r.relation]));
      for (const d of decided) relations.set(pairKey(d.a_id, d.b_id), d.relation);
      return [...relations].flatMap(([key, relation]) => {
        const [a, b] = key.split('\n') as [string, string];
        return relation === 'same' || relation === 'inverse' ? [{ a, b, relation }] : [];
      });
    },

    /** How many pairs the judge stored, by relation (decisions aside): for the bench and the docs' figures. */
    async countVerdicts(): Promise<Record<string, number>> {
      const rows = await db
        .selectFrom('market_links')
        .select(['relation', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('relation')
        .execute();
      return Object.fromEntries(rows.map((r) => [r.relation, Number(r.n)]));
    },

    /** The operator's decision on a pair (`different` rejects it); replaces an earlier one. */
    async decide(x: string, y: string, relation: Exclude<LinkRelation, 'unresolved'>, at: number): Promise<void> {
      const { a, b } = orderedPair(x, y);
      await db
        .insertInto('market_link_decisions')
        .values({ a_id: a, b_id: b, relation, decided_at: at })
        .onConflict((oc) =>
          oc.columns(['a_id', 'b_id']).doUpdateSet((eb) => ({ relation: eb.ref('excluded.relation'), decided_at: eb.ref('excluded.decided_at') })),
        )
        .execute();
    },
  };
}

export type MarketLinkRepository = ReturnType<typeof createMarketLinkRepository>;
