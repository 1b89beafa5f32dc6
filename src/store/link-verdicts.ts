/** The judge's verdicts (replaced a market at a time, counted) and the operator's decisions on pairs. */
import type { Kysely } from 'kysely';
import type { LinkDecider, LinkRelation, LinkVerdict } from '../domain/links.js';
import { chunks } from './batches.js';
import { orderedPair, swapSides } from './link-pairs.js';
import type { Database } from './tables.js';

export function createLinkVerdicts(db: Kysely<Database>) {
  return {
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
