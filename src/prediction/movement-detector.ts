/**
 * The movement detector of D9, a pure core: per market a baseline probability (its first
 * observation, then the one at its last alert); an observation more than 5.0 points away from
 * the baseline (strictly) is a movement, and becomes the new baseline.
 */
import type { MovementBaseline, ProbabilityObservation } from '../domain/prediction.js';
import { deltaPoints, percentOf } from './percent.js';

export const MOVEMENT_THRESHOLD_PTS = 5;

type Baseline = MovementBaseline;

export interface Movement {
  marketId: string;
  oldPct: number;
  newPct: number;
  deltaPts: number;
  detectedAt: number;
}

/** One observation against one baseline: the baseline after it, and the movement if there was one. */
export function detectMovement(baseline: Baseline | undefined, observation: ProbabilityObservation): { baseline: Baseline; movement?: Movement } {
  const pct = percentOf(observation.prob);
  const next: Baseline = { marketId: observation.marketId, pct, observedAt: observation.observedAt };
  if (!baseline) return { baseline: next };
  // Compared in hundredths of a point, integers: 5.00 points is not a movement, 5.01 is.
  if (Math.abs(Math.round(pct * 100) - Math.round(baseline.pct * 100)) <= MOVEMENT_THRESHOLD_PTS * 100) {
    return { baseline };
  }
  return {
    baseline: next,
    movement: {
      marketId: observation.marketId,
      oldPct: baseline.pct,
      newPct: pct,
      deltaPts: deltaPoints(baseline.pct, pct),
      detectedAt: observation.observedAt,
    },
  };
}

/**
 * The detector over a stream of observations. An observation not newer than the market's baseline
 * is ignored: replays and late arrivals never raise an alert twice or out of order.
 */
export class MovementDetector {
  private readonly baselines = new Map<string, Baseline>();

  constructor(initial: readonly Baseline[] = []) {
    for (const b of initial) this.baselines.set(b.marketId, b);
  }

  /** Feeds observations (any order; processed by time) and returns the movements and the baselines that changed. */
  observe(observations: readonly ProbabilityObservation[]): { movements: Movement[]; changed: Baseline[] } {
    const movements: Movement[] = [];
    const changed = new Map<string, Baseline>();
    const ordered = [...observations].sort((x, y) => x.observedAt - y.observedAt);
    for (const observation of ordered) {
      const current = this.baselines.get(observation.marketId);
      if (current && observation.observedAt <= current.observedAt) continue;
      const step = detectMovement(current, observation);
      if (step.baseline !== current) {
        this.baselines.set(observation.marketId, step.baseline);
        changed.set(observation.marketId, step.baseline);
      }
      if (step.movement) movements.push(step.movement);
    }
    return { movements, changed: [...changed.values()] };
  }
}
