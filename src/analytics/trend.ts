/** Trend and confidence of the brief from five indicator votes (docs/brief-method.md). */
import type { Indicators, Trend } from '../domain/market.js';

/** +1 bullish, -1 bearish, 0 undecided (equal values); null when an input indicator is null. */
type Vote = -1 | 0 | 1 | null;

interface TrendVotes {
  emaCross: Vote;
  macdHistogram: Vote;
  closeVsSma50: Vote;
  rsiVs50: Vote;
  smaCross: Vote;
}

const VOTE_COUNT = 5;
/** |score| at or beyond this calls a direction. */
const TREND_THRESHOLD = 1 / 3;

export function castVotes(close: number, ind: Indicators): TrendVotes {
  return {
    emaCross: compare(ind.ema12, ind.ema26),
    macdHistogram: compare(ind.macdHistogram, 0),
    closeVsSma50: compare(close, ind.sma50),
    rsiVs50: compare(ind.rsi14, 50),
    smaCross: compare(ind.sma20, ind.sma50),
  };
}

/**
 * score = sum of votes / VOTE_COUNT (a missing vote counts 0); confidence = agreement x coverage,
 * agreement = |sum| / available votes, coverage = available / VOTE_COUNT (so it equals |score|).
 */
export function assessTrend(votes: TrendVotes): { trend: Trend; score: number; confidence: number } {
  const cast = Object.values(votes).filter((v): v is -1 | 0 | 1 => v !== null);
  const sum = cast.reduce<number>((total, v) => total + v, 0);
  const score = sum / VOTE_COUNT;
  const agreement = cast.length === 0 ? 0 : Math.abs(sum) / cast.length;
  const coverage = cast.length / VOTE_COUNT;
  const trend: Trend = score >= TREND_THRESHOLD ? 'bullish' : score <= -TREND_THRESHOLD ? 'bearish' : 'neutral';
  return { trend, score, confidence: Math.min(1, Math.max(0, agreement * coverage)) };
}

function compare(a: number | null, b: number | null): Vote {
  if (a === null || b === null) return null;
  return a > b ? 1 : a < b ? -1 : 0;
}
