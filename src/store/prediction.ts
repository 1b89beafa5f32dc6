/** Prediction markets (variant B): metadata, latest observation, hourly history, movement alerts, briefs. */
import type { Kysely } from 'kysely';
import type {
  ChartPoint,
  MorningBrief,
  MovementAlert,
  MovementBaseline,
  PredictionMarket,
  PredictionMarketMeta,
  ProbabilityObservation,
} from '../domain/prediction.js';
import { chunks } from './batches.js';
import type { Database, MovementAlertsTable, PredictionMarketsTable } from './tables.js';
import { HOUR_MS } from '../domain/time.js';

interface HistoryPoint {
  marketId: string;
  hourStart: number;
  prob: number;
  observedAt: number;
}

type Baseline = MovementBaseline;

/** A live source's complete answer, taken at `at`: its markets absent from it are no longer ranked. */
export interface Sweep {
  source: string;
  at: number;
}

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

export function createPredictionRepository(db: Kysely<Database>) {
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

    /** Each live source's last complete answer, by source. */
    async listSweeps(): Promise<Map<string, number>> {
      const rows = await db.selectFrom('prediction_sweeps').selectAll().execute();
      return new Map(rows.map((r) => [r.source, r.swept_at]));
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

    async getBrief(date: string): Promise<MorningBrief | undefined> {
      const row = await db.selectFrom('morning_briefs').selectAll().where('date', '=', date).executeTakeFirst();
      return row && { date: row.date, brief: row.brief, writer: row.writer, generatedAt: row.generated_at };
    },

    /** Stores the date's brief unless one exists, and returns the one stored: the first writer wins. */
    async saveBriefOnce(brief: MorningBrief): Promise<MorningBrief> {
      await db
        .insertInto('morning_briefs')
        .values({ date: brief.date, brief: brief.brief, writer: brief.writer, generated_at: brief.generatedAt })
        .onConflict((oc) => oc.column('date').doNothing())
        .execute();
      const stored = await this.getBrief(brief.date);
      if (!stored) throw new Error(`morning brief of ${brief.date} vanished after it was saved`);
      return stored;
    },
  };
}

export type PredictionRepository = ReturnType<typeof createPredictionRepository>;
