/** Variant B (prediction markets) domain types. Times are epoch milliseconds. */

export const PREDICTION_SIGNALS = ['hot', 'watch', 'rising', 'wait'] as const;
export type PredictionSignal = (typeof PREDICTION_SIGNALS)[number];

/** What a feed says about a market that does not change tick to tick. */
export interface PredictionMarketMeta {
  /** `<source>:<upstream id>` */
  id: string;
  /** Upstream platform, lower case: `demo`, `polymarket`, `kalshi`, `manifold`. */
  source: string;
  question: string;
  url: string;
  /** Free-form subject (`politics`, `crypto`, ...), when the feed knows it. */
  topic: string | null;
}

/** One reading of a market: its probability of YES and its 24-hour volume at a moment. */
export interface ProbabilityObservation {
  marketId: string;
  /** Fraction 0..1. */
  prob: number;
  /** 24-hour volume in the platform's unit (USD, contracts, mana), >= 0. */
  volume24h: number;
  observedAt: number;
  /** The platform's own 24-hour probability change, in points, where it reports one (unrounded). */
  sourceMove24hPts?: number | null | undefined;
}

/** A market with its latest observation. */
export interface PredictionMarket extends PredictionMarketMeta {
  prob: number;
  volume24h: number;
  updatedAt: number;
  /** The platform's own 24-hour move at the latest observation, in points; null where it reports none. */
  sourceMove24hPts: number | null;
}

export interface MovementAlert {
  id: string;
  marketId: string;
  /** The question when the movement was detected (kept if the market later leaves the feed). */
  question: string;
  oldPct: number;
  newPct: number;
  deltaPts: number;
  detectedAt: number;
}

export interface MorningBrief {
  /** UTC date, YYYY-MM-DD. */
  date: string;
  brief: string;
  generatedAt: number;
  /** `builtin` or the model that wrote it. */
  writer: string;
}

/** The movement detector's state per market (D9): the probability, in percent, movements are measured from. */
export interface MovementBaseline {
  marketId: string;
  /** Percent, exact to the probability's 4 decimals. */
  pct: number;
  observedAt: number;
}

/** One hour of a prediction market's chart: its last observation in that UTC hour. */
export interface ChartPoint {
  hourStart: number;
  prob: number;
  volume24h: number | null;
}
