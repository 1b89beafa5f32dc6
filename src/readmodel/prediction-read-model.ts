/**
 * Prediction markets, their last day of hourly history and the newest movement alerts, in memory,
 * so requests never wait on the store. Ingest writes to the store first and then applies the same
 * rows here; `version` changes with every change.
 */
import { HourlyHistory } from './hourly-history.js';
import { Listeners } from './listeners.js';
import type { MovementAlert, PredictionMarket, PredictionMarketMeta, PredictionSignal, ProbabilityObservation } from '../domain/prediction.js';
import { MOVEMENT_ALERTS_LIMIT } from '../domain/limits.js';
import { deltaPoints, percentOf, roundPoints } from '../prediction/percent.js';
import { distinctQuestions } from '../prediction/questions.js';
import { scoreMarkets } from '../prediction/scoring.js';
import type { PredictionRepository } from '../store/prediction.js';
import { DAY_MS, HOUR_MS } from '../domain/time.js';

/** History kept in memory: a day back from now, plus the hour the reference falls in. */
const HISTORY_KEPT_MS = DAY_MS + 2 * HOUR_MS;
/** Enough for the largest GET /alerts answer (D6). */
const ALERTS_KEPT = MOVEMENT_ALERTS_LIMIT.max;

export interface ScoredPredictionMarket {
  market: PredictionMarket;
  signal: PredictionSignal;
  /** Probability change over about 24 hours, in points; null when there is no history yet. */
  move24hPts: number | null;
  /** Ranked now; false once the market left its platform's latest complete answer (closed, resolved, past the bound). */
  active: boolean;
}

/** D8: 24-hour volume descending, ties by question ascending. */
function byActivity(a: PredictionMarket, b: PredictionMarket): number {
  return b.volume24h - a.volume24h || (a.question < b.question ? -1 : a.question > b.question ? 1 : 0);
}

/** Markets not observed for this long leave the ranking (feeds poll every minute or two; the demo ticks every few seconds). */
const STALE_AFTER_MS = 26 * HOUR_MS;

export class PredictionReadModel {
  private readonly metas = new Map<string, PredictionMarketMeta>();
  private readonly markets = new Map<string, PredictionMarket>();
  private history = new HourlyHistory(HISTORY_KEPT_MS);
  /** Per live source, when its last complete answer was taken: older markets of it are not ranked. */
  private readonly sweeps = new Map<string, number>();
  private alerts: MovementAlert[] = [];
  private ranked: { key: string; list: ScoredPredictionMarket[] } | undefined;
  version = 0;
  private readonly marketChanges = new Listeners<readonly string[]>();
  private readonly alertChanges = new Listeners<readonly MovementAlert[]>();

  /** Told of the markets whose probability or volume changed (ids), after each batch or reload. */
  onMarkets(listener: (ids: readonly string[]) => void): () => void {
    return this.marketChanges.add(listener);
  }

  /** Told of movement alerts new to this model, oldest first, after each batch or reload. */
  onAlerts(listener: (alerts: readonly MovementAlert[]) => void): () => void {
    return this.alertChanges.add(listener);
  }

  async load(repo: PredictionRepository, now: number): Promise<void> {
    const [markets, alerts, sweeps] = await Promise.all([repo.listMarkets(), repo.latestAlerts(ALERTS_KEPT), repo.listSweeps()]);
    // The history arrives a page at a time into a map of its own; requests keep reading the old
    // model until everything is in, then the swap below is one synchronous step.
    const history = new HourlyHistory(HISTORY_KEPT_MS);
    for await (const page of repo.historyPagesSince(now - HISTORY_KEPT_MS)) {
      for (const p of page) history.add(p.marketId, p.hourStart, p.prob, p.observedAt);
    }
    // Loading replaces: an HTTP-only instance reloads on every change notice from the worker.
    const before = new Map(this.markets);
    const knownAlerts = new Set(this.alerts.map((a) => a.id));
    const firstLoad = this.version === 0;
    this.metas.clear();
    this.markets.clear();
    this.sweeps.clear();
    for (const [source, at] of sweeps) this.sweeps.set(source, at);
    this.ranked = undefined;
    for (const m of markets) {
      this.metas.set(m.id, m);
      this.markets.set(m.id, m);
    }
    this.history = history;
    this.alerts = alerts;
    this.version++;
    if (firstLoad) return;
    const changed = markets.filter((m) => {
      const old = before.get(m.id);
      return !old || old.prob !== m.prob || old.volume24h !== m.volume24h;
    });
    if (changed.length > 0) this.marketChanges.emit(changed.map((m) => m.id));
    const fresh = alerts.filter((a) => !knownAlerts.has(a.id)).reverse();
    if (fresh.length > 0) this.alertChanges.emit(fresh);
  }

  applyMarkets(metas: readonly PredictionMarketMeta[]): void {
    for (const meta of metas) {
      this.metas.set(meta.id, meta);
      const market = this.markets.get(meta.id);
      if (market) this.markets.set(meta.id, { ...market, ...meta });
    }
    this.version++;
  }

  applyObservations(observations: readonly ProbabilityObservation[]): void {
    const changed = new Set<string>();
    for (const o of observations) {
      const meta = this.metas.get(o.marketId);
      if (!meta) continue;
      const current = this.markets.get(o.marketId);
      if (!current || current.updatedAt <= o.observedAt) {
        this.markets.set(o.marketId, { ...meta, prob: o.prob, volume24h: o.volume24h, updatedAt: o.observedAt, sourceMove24hPts: o.sourceMove24hPts ?? null });
        if (!current || current.prob !== o.prob || current.volume24h !== o.volume24h) changed.add(o.marketId);
      }
      this.record(o);
    }
    this.version++;
    if (changed.size > 0) this.marketChanges.emit([...changed]);
  }

  /** A live source's complete answer was stored (with its observations): its absent markets leave the ranking. */
  applySweep(source: string, at: number): void {
    if ((this.sweeps.get(source) ?? -Infinity) >= at) return;
    this.sweeps.set(source, at);
    this.version++;
  }

  /**
   * Ranked markets are the ones their source still lists: observed since the source's last complete
   * answer (live sources), and within a day (a source that stopped being polled, the demo).
   */
  isActive(market: PredictionMarket, now: number): boolean {
    return market.updatedAt >= now - STALE_AFTER_MS && market.updatedAt >= (this.sweeps.get(market.source) ?? -Infinity);
  }

  /** Newly stored alerts; the list stays newest first and bounded. */
  addAlerts(alerts: readonly MovementAlert[]): void {
    if (alerts.length === 0) return;
    // The store's order: detected_at descending, ties by insertion, newest first. The batch was stored
    // in array order, so reversed it is newest first; the sort is stable, so it keeps that among ties.
    this.alerts = [...[...alerts].reverse(), ...this.alerts].sort((a, b) => b.detectedAt - a.detectedAt).slice(0, ALERTS_KEPT);
    this.version++;
    this.alertChanges.emit(alerts);
  }

  get(id: string): PredictionMarket | undefined {
    return this.markets.get(id);
  }

  /** Every market with an observation. */
  all(): PredictionMarket[] {
    return [...this.markets.values()];
  }

  latestAlerts(limit: number): MovementAlert[] {
    return this.alerts.slice(0, limit);
  }

  /** The `limit` most active markets, scored against every tracked market (D8, scoring.ts). */
  top(limit: number, now: number): ScoredPredictionMarket[] {
    return this.rank(now).slice(0, limit);
  }

  /** All markets ranked and scored; recomputed when the data or the hour changes. */
  private rank(now: number): ScoredPredictionMarket[] {
    const key = `${this.version}|${Math.floor(now / HOUR_MS)}`;
    if (this.ranked?.key === key) return this.ranked.list;
    // A market its source no longer lists has closed or left the tracked set: its last volume no
    // longer says how active it is.
    const ranked = this.all()
      .filter((m) => this.isActive(m, now))
      .sort(byActivity);
    // Two platforms may ask the same question: the source tells them apart, else the id.
    const questions = distinctQuestions(
      ranked.map((m) => m.question),
      [(i) => ranked[i]!.source, (i) => ranked[i]!.id.slice(ranked[i]!.source.length + 1)],
    );
    const markets = ranked.map((m, i) => (questions[i] === m.question ? m : { ...m, question: questions[i]! }));
    const moves = markets.map((m) => this.move24h(m, now));
    const signals = scoreMarkets(markets.map((m, i) => ({ volume24h: m.volume24h, move24hPts: moves[i]! })));
    const list = markets.map((market, i) => ({ market, signal: signals[i]!, move24hPts: moves[i]!, active: true }));
    this.ranked = { key, list };
    return list;
  }

  /**
   * The move over 24 hours: from the gateway's own hourly history once it reaches a day back (the
   * change since the last point at or before a day ago); before that, the platform's own 24-hour
   * move where it reports one; else the change since the first point, for younger markets.
   */
  private move24h(market: PredictionMarket, now: number): number | null {
    const reference = this.history.reference(market.id, now - DAY_MS);
    if (!reference?.reachesBack && market.sourceMove24hPts !== null) return roundPoints(market.sourceMove24hPts);
    if (!reference) return null;
    return deltaPoints(percentOf(reference.prob), percentOf(market.prob));
  }

  private record(o: ProbabilityObservation): void {
    const hourStart = Math.floor(o.observedAt / HOUR_MS) * HOUR_MS;
    this.history.record(o.marketId, hourStart, o.prob, o.observedAt);
  }
}
