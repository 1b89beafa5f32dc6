/** The variant A brief of one symbol over one interval (method: docs/brief-method.md). */
import type { BriefAnalysis, Candle } from '../domain/market.js';
import { computeIndicators } from './indicators.js';
import { priceDecimals, roundIndicators, roundTo, shownPrice, shownVolume } from './round.js';
import { detectSignals } from './signals.js';
import { assessTrend, castVotes } from './trend.js';

export { BRIEF_SIGNALS, type BriefSignal } from './signals.js';

/**
 * Candles after which every indicator is non-null: SMA(50) has the longest warm-up
 * (MACD signal 34, RSI(14) 15, SMA(20)/Bollinger(20) 20, ATR(14) 14). The SMA crossing signals
 * need one candle more, which a backfill of twice this covers.
 */
export const MIN_CANDLES_FOR_FULL_BRIEF = 50;

/** Analyses candles sorted by openTime ascending (the last may be partial); null when there are none. */
export function analyzeCandles(candles: readonly Candle[]): BriefAnalysis | null {
  const last = candles.at(-1);
  if (!last) return null;
  const price = finiteOrZero(last.close);
  const decimals = priceDecimals(price);
  const run = computeIndicators(candles);
  const now = roundIndicators(run.now, decimals);
  const before = run.before && roundIndicators(run.before, decimals);
  const { trend, confidence } = assessTrend(castVotes(price, now));
  return {
    trend,
    confidence: roundTo(confidence, 2),
    // Every number rounded once, for people: a candle's close and volume are sums of floats.
    price: shownPrice(price),
    change: percentChange(candles.at(-2)?.close, price),
    volume: shownVolume(finiteOrZero(last.volume)),
    signals: detectSignals({ candles, now, before }),
    indicators: now,
  };
}

/** Percent change from the previous close, 2 decimals; 0 without a usable previous close. */
function percentChange(previous: number | undefined, price: number): number {
  if (previous === undefined || !Number.isFinite(previous) || previous === 0) return 0;
  return roundTo(((price - previous) / previous) * 100, 2);
}

function finiteOrZero(value: number): number {
  return Number.isFinite(value) ? value : 0;
}
