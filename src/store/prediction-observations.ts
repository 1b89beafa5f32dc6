/**
 * Observations of prediction markets: the latest reading per market, the hourly history, and the
 * sources' complete answers (sweeps), written together.
 */
import type { Kysely } from 'kysely';
import type { ProbabilityObservation } from '../domain/prediction.js';
import { HOUR_MS } from '../domain/time.js';
import { chunks } from './batches.js';
import type { Database } from './tables.js';

/** A live source's complete answer, taken at `at`: its markets absent from it are no longer ranked. */
export interface Sweep {
  source: string;
  at: number;
}

/** The newest observation per market: only it reaches the markets table. */
function latestPerMarket(observations: readonly ProbabilityObservation[]): ProbabilityObservation[] {
  const latest = new Map<string, ProbabilityObservation>();
  for (const o of observations) {
    const seen = latest.get(o.marketId);
    if (!seen || seen.observedAt <= o.observedAt) latest.set(o.marketId, o);
  }
  return [...latest.values()];
}

/** The last observation of each market and hour. */
function lastPerHour(observations: readonly ProbabilityObservation[]): ProbabilityObservation[] {
  const last = new Map<string, ProbabilityObservation>();
  for (const o of observations) {
    const key = `${o.marketId}|${Math.floor(o.observedAt / HOUR_MS)}`;
    const seen = last.get(key);
    if (!seen || seen.observedAt <= o.observedAt) last.set(key, o);
  }
  return [...last.values()];
}

export function createPredictionObservations(db: Kysely<Database>) {
  return {
    /**
     * Stores the latest reading per market (an older one never overwrites a newer) and the hourly
     * history; with `sweep`, also that this was the source's complete answer, in the same
     * transaction, so no reader sees the sweep (which unranks the absent) without its markets.
     */
    async recordObservations(observations: readonly ProbabilityObservation[], sweep?: Sweep): Promise<void> {
      if (observations.length === 0 && !sweep) return;
      await db.transaction().execute(async (trx) => {
        if (sweep) {
          await trx
            .insertInto('prediction_sweeps')
            .values({ source: sweep.source, swept_at: sweep.at })
            .onConflict((oc) =>
              oc
                .column('source')
                .doUpdateSet((eb) => ({ swept_at: eb.ref('excluded.swept_at') }))
                .where('prediction_sweeps.swept_at', '<', (eb) => eb.ref('excluded.swept_at')),
            )
            .execute();
        }
        for (const o of latestPerMarket(observations)) {
          await trx
            .updateTable('prediction_markets')
            .set({ prob: o.prob, volume_24h: o.volume24h, updated_at: o.observedAt, source_move_24h: o.sourceMove24hPts ?? null })
            .where('id', '=', o.marketId)
            .where((eb) => eb.or([eb('updated_at', 'is', null), eb('updated_at', '<=', o.observedAt)]))
            .execute();
        }
        for (const batch of chunks(lastPerHour(observations))) {
          await trx
            .insertInto('prediction_history')
            .values(
              batch.map((o) => ({
                market_id: o.marketId,
                hour_start: Math.floor(o.observedAt / HOUR_MS) * HOUR_MS,
                prob: o.prob,
                observed_at: o.observedAt,
                volume_24h: o.volume24h,
              })),
            )
            .onConflict((oc) =>
              oc
                .columns(['market_id', 'hour_start'])
                .doUpdateSet((eb) => ({
                  prob: eb.ref('excluded.prob'),
                  observed_at: eb.ref('excluded.observed_at'),
                  volume_24h: eb.ref('excluded.volume_24h'),
                }))
                .where('prediction_history.observed_at', '<=', (eb) => eb.ref('excluded.observed_at')),
            )
            .execute();
        }
      });
    },

    /** Each live source's last complete answer, by source. */
    async listSweeps(): Promise<Map<string, number>> {
      const rows = await db.selectFrom('prediction_sweeps').selectAll().execute();
      return new Map(rows.map((r) => [r.source, r.swept_at]));
    },
  };
}
