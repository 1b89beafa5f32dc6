/** The hourly history of prediction markets: read whole, a page at a time or per market for charts; pruned. */
import type { Kysely } from 'kysely';
import type { ChartPoint } from '../domain/prediction.js';
import type { Database } from './tables.js';

export interface HistoryPoint {
  marketId: string;
  hourStart: number;
  prob: number;
  observedAt: number;
}

export function createPredictionHistory(db: Kysely<Database>) {
  return {
    async historySince(since: number): Promise<HistoryPoint[]> {
      const points: HistoryPoint[] = [];
      for await (const page of this.historyPagesSince(since)) points.push(...page);
      return points;
    },

    /**
     * The same points, a page at a time (keyset pagination on the primary key): loading 10 000
     * markets' history never holds every row twice over, which once set the process's peak RSS.
     */
    async *historyPagesSince(since: number, pageSize = 10_000): AsyncGenerator<HistoryPoint[]> {
      let after: { marketId: string; hourStart: number } | undefined;
      for (;;) {
        let query = db.selectFrom('prediction_history').select(['market_id', 'hour_start', 'prob', 'observed_at']).where('hour_start', '>=', since);
        if (after) {
          const { marketId, hourStart } = after;
          query = query.where((eb) => eb.or([eb('market_id', '>', marketId), eb.and([eb('market_id', '=', marketId), eb('hour_start', '>', hourStart)])]));
        }
        const rows = await query.orderBy('market_id').orderBy('hour_start').limit(pageSize).execute();
        if (rows.length === 0) return;
        yield rows.map((r) => ({ marketId: r.market_id, hourStart: r.hour_start, prob: r.prob, observedAt: r.observed_at }));
        const last = rows.at(-1)!;
        after = { marketId: last.market_id, hourStart: last.hour_start };
        if (rows.length < pageSize) return;
      }
    },

    /** The hourly points of these markets from `since` on, each market's oldest first (for charts). */
    async chartHistory(marketIds: readonly string[], since: number): Promise<Map<string, ChartPoint[]>> {
      const out = new Map<string, ChartPoint[]>(marketIds.map((id) => [id, []]));
      if (marketIds.length === 0) return out;
      const rows = await db
        .selectFrom('prediction_history')
        .select(['market_id', 'hour_start', 'prob', 'volume_24h'])
        .where('market_id', 'in', marketIds)
        .where('hour_start', '>=', since)
        .orderBy('market_id')
        .orderBy('hour_start')
        .execute();
      for (const r of rows) out.get(r.market_id)?.push({ hourStart: r.hour_start, prob: r.prob, volume24h: r.volume_24h });
      return out;
    },

    async pruneHistory(before: number): Promise<void> {
      await db.deleteFrom('prediction_history').where('hour_start', '<', before).execute();
    },
  };
}
