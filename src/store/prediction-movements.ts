/** The movement detector's state and output: its baselines and the movement alerts, written together. */
import type { Kysely } from 'kysely';
import type { MovementAlert, MovementBaseline } from '../domain/prediction.js';
import { chunks } from './batches.js';
import type { Database, MovementAlertsTable } from './tables.js';

type Baseline = MovementBaseline;

function toAlert(r: Omit<MovementAlertsTable, 'seq'>): MovementAlert {
  return {
    id: r.id,
    marketId: r.market_id,
    question: r.question,
    oldPct: r.old_pct,
    newPct: r.new_pct,
    deltaPts: r.delta_pts,
    detectedAt: r.detected_at,
  };
}

export function createPredictionMovements(db: Kysely<Database>) {
  return {
    async listBaselines(): Promise<Baseline[]> {
      const rows = await db.selectFrom('movement_baselines').selectAll().execute();
      return rows.map((r) => ({ marketId: r.market_id, pct: r.pct, observedAt: r.observed_at }));
    },

    /**
     * The detector's output in one transaction: its new baselines and the alerts they came with,
     * so a crash never keeps one without the other. An alert already stored (same market and
     * observation) is not stored twice; returns the alerts this call inserted.
     */
    async recordMovements(baselines: readonly Baseline[], alerts: readonly MovementAlert[]): Promise<MovementAlert[]> {
      if (baselines.length === 0 && alerts.length === 0) return [];
      return db.transaction().execute(async (trx) => {
        for (const batch of chunks(baselines)) {
          await trx
            .insertInto('movement_baselines')
            .values(batch.map((b) => ({ market_id: b.marketId, pct: b.pct, observed_at: b.observedAt })))
            .onConflict((oc) =>
              oc
                .column('market_id')
                .doUpdateSet((eb) => ({ pct: eb.ref('excluded.pct'), observed_at: eb.ref('excluded.observed_at') }))
                .where('movement_baselines.observed_at', '<=', (eb) => eb.ref('excluded.observed_at')),
            )
            .execute();
        }
        const inserted: MovementAlert[] = [];
        for (const batch of chunks(alerts)) {
          const rows = await trx
            .insertInto('movement_alerts')
            .values(
              batch.map((a) => ({
                id: a.id,
                market_id: a.marketId,
                question: a.question,
                old_pct: a.oldPct,
                new_pct: a.newPct,
                delta_pts: a.deltaPts,
                detected_at: a.detectedAt,
              })),
            )
            .onConflict((oc) => oc.columns(['market_id', 'detected_at']).doNothing())
            .returning('id')
            .execute();
          const ids = new Set(rows.map((r) => r.id));
          inserted.push(...batch.filter((a) => ids.has(a.id)));
        }
        return inserted;
      });
    },

    /** Newest detected first; ties by insertion order, newest first (D8). */
    async latestAlerts(limit: number): Promise<MovementAlert[]> {
      const rows = await db.selectFrom('movement_alerts').selectAll().orderBy('detected_at', 'desc').orderBy('seq', 'desc').limit(limit).execute();
      return rows.map(toAlert);
    },

    async alertsSince(since: number): Promise<MovementAlert[]> {
      const rows = await db.selectFrom('movement_alerts').selectAll().where('detected_at', '>=', since).execute();
      return rows.map(toAlert);
    },
  };
}
