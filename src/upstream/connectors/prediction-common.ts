/** The batch a prediction connector builds from its mapped markets. */
import type { PredictionMarketMeta, ProbabilityObservation } from '../../domain/prediction.js';
import { roundProb } from '../../prediction/percent.js';
import type { PredictionBatch, SkippedItems } from '../connector.js';
import type { ItemProblems } from '../validate.js';

export interface MappedMarket {
  meta: PredictionMarketMeta;
  prob: number;
  volume24h: number;
}

/** The batch of one poll: every observation stamped with the poll time, prob to 4 decimals, whole volumes. */
export function predictionBatch(
  mapped: readonly MappedMarket[],
  now: number,
  problems: ItemProblems,
  { skipped = {}, complete = true }: { skipped?: SkippedItems; complete?: boolean } = {},
): PredictionBatch {
  const seen = new Set<string>();
  const unique = mapped.filter((m) => !seen.has(m.meta.id) && seen.add(m.meta.id));
  return {
    kind: 'prediction',
    markets: unique.map((m) => m.meta),
    observations: unique.map(
      (m): ProbabilityObservation => ({ marketId: m.meta.id, prob: roundProb(m.prob), volume24h: Math.max(0, Math.round(m.volume24h)), observedAt: now }),
    ),
    problems,
    skipped,
    complete,
  };
}
