/**
 * What a prediction batch writes: its observations to the store, then the read model, then through
 * the movement detector, whose alerts and baselines are stored together before the read model sees
 * the alerts; and the hourly history pruned past its retention, at most hourly.
 */
import { newId } from '../domain/ids.js';
import type { MovementAlert, ProbabilityObservation } from '../domain/prediction.js';
import { DAY_MS, HOUR_MS } from '../domain/time.js';
import { MovementDetector } from '../prediction/movement-detector.js';
import type { PredictionReadModel } from '../readmodel/prediction-read-model.js';
import type { PredictionRepository, Sweep } from '../store/prediction.js';
import { inSpan, type SpanHandle } from '../telemetry/tracing.js';

const HISTORY_KEPT_MS = 3 * DAY_MS;
const PRUNE_EVERY_MS = HOUR_MS;

export interface MovementIngestOptions {
  repo: PredictionRepository;
  readModel: PredictionReadModel;
  /** Told after every write (other instances reload their read models). */
  onChange?: () => void;
  /** Told how many movement alerts each write stored (metrics). */
  onAlerts?: (count: number) => void;
}

export function createMovementIngest(options: MovementIngestOptions) {
  const { repo, readModel } = options;
  let detector = new MovementDetector();

  async function ingest(observations: readonly ProbabilityObservation[], sweep?: Sweep): Promise<MovementAlert[]> {
    await repo.recordObservations(observations, sweep);
    readModel.applyObservations(observations);
    if (sweep) readModel.applySweep(sweep.source, sweep.at);
    return inSpan(
      'detect movements',
      () => ({ 'mgw.observations': observations.length }),
      (span) => detect(observations, span),
    );
  }

  /** The detector over the observations; its alerts and moved baselines stored together. */
  async function detect(observations: readonly ProbabilityObservation[], span?: SpanHandle): Promise<MovementAlert[]> {
    const { movements, changed } = detector.observe(observations);
    const alerts = movements.map((m) => ({ id: newId('mvmt'), question: readModel.get(m.marketId)?.question ?? m.marketId, ...m }));
    try {
      const stored = await repo.recordMovements(changed, alerts);
      readModel.addAlerts(stored);
      if (stored.length > 0) options.onAlerts?.(stored.length);
      span?.set({ 'mgw.alerts': stored.length });
      options.onChange?.();
      return stored;
    } catch (error) {
      // The detector moved its baselines but the store did not: start again from the stored ones,
      // so the same movements are found on the next observation instead of being lost.
      detector = new MovementDetector(await repo.listBaselines().catch(() => []));
      throw error;
    }
  }

  /** The detector starts again from the stored baselines. */
  async function loadBaselines(): Promise<void> {
    detector = new MovementDetector(await repo.listBaselines());
  }

  return { ingest, loadBaselines };
}

/** Prunes the hourly history past its retention, at most once an hour. */
export function createHistoryPruner(repo: PredictionRepository) {
  let lastPrune = 0;
  return async function prune(now: number): Promise<void> {
    if (now - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = now;
    await repo.pruneHistory(now - HISTORY_KEPT_MS);
  };
}
