/**
 * Links as a market sees them: the operator's decision over the judge's verdict, the evidence
 * turned round when the market is the pair's `b` side; and the pairs that settle together.
 */
import type { Kysely } from 'kysely';
import type { LinkDecider, LinkEvidence, LinkImplication, LinkRelation, LinkVerdict } from '../domain/links.js';
import { chunks } from './batches.js';
import { pairKey, swapSides } from './link-pairs.js';
import type { Database, MarketLinksTable } from './tables.js';

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

export function createLinkViews(db: Kysely<Database>) {
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
  };
}
