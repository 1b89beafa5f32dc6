/** Variant B (prediction markets) domain types. */

export const PREDICTION_SIGNALS = ['hot', 'watch', 'rising', 'wait'] as const;
export type PredictionSignal = (typeof PREDICTION_SIGNALS)[number];

export interface PredictionMarket {
  /** `<source>:<upstream id>` */
  id: string;
  source: string;
  question: string;
  url: string;
  /** Probability as a fraction 0..1 (at most 4 decimals when served). */
  prob: number;
  volume24h: number;
  updatedAt: number;
}

export interface MovementAlert {
  id: string;
  marketId: string;
  oldPct: number;
  newPct: number;
  deltaPts: number;
  detectedAt: number;
}

export interface MorningBrief {
  date: string;
  brief: string;
  generatedAt: number;
}
