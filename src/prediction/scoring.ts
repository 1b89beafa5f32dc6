/**
 * The `signal` of a prediction market (hot, watch, rising, wait): how much attention it deserves
 * now, from how busy it is and how far its probability moved over the last 24 hours.
 *
 * - busy: its 24-hour volume is in the top fifth of the tracked markets (volume percentile >= 0.8);
 * - `hot`: busy and moved 5 points or more either way (money and news at once);
 * - `rising`: otherwise, up 3 points or more (the market is warming to YES);
 * - `watch`: otherwise, busy, or down 3 points or more;
 * - `wait`: nothing notable.
 *
 * Volume counts relative to the tracked set because platforms trade in different units (USD,
 * contracts, play money); the move is in probability points, comparable everywhere.
 */
import type { PredictionSignal } from '../domain/prediction.js';

const BUSY_PERCENTILE = 0.8;
const HOT_MOVE_PTS = 5;
const NOTABLE_MOVE_PTS = 3;

/** Strength order, strongest first. */
export const SIGNAL_STRENGTH: Record<PredictionSignal, number> = { hot: 3, rising: 2, watch: 1, wait: 0 };

/**
 * @param volumePercentile share of the other tracked markets with a lower 24-hour volume, 0..1
 * @param move24hPts probability change over 24 hours in points (signed); null when unknown
 */
export function signalFor(volumePercentile: number, move24hPts: number | null): PredictionSignal {
  const busy = volumePercentile >= BUSY_PERCENTILE;
  const move = move24hPts ?? 0;
  if (busy && Math.abs(move) >= HOT_MOVE_PTS) return 'hot';
  if (move >= NOTABLE_MOVE_PTS) return 'rising';
  if (busy || move <= -NOTABLE_MOVE_PTS) return 'watch';
  return 'wait';
}

/** Percentile of each volume among all of them: the share of the others strictly below it (ties share a rank). */
export function volumePercentiles(volumes: readonly number[]): number[] {
  if (volumes.length <= 1) return volumes.map(() => 1);
  const sorted = [...volumes].sort((a, b) => a - b);
  return volumes.map((v) => lowerCount(sorted, v) / (volumes.length - 1));
}

/** How many of `sorted` are strictly below `value` (binary search). */
function lowerCount(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Signals of a whole tracked set, in input order. */
export function scoreMarkets(markets: readonly { volume24h: number; move24hPts: number | null }[]): PredictionSignal[] {
  const percentiles = volumePercentiles(markets.map((m) => m.volume24h));
  return markets.map((m, i) => signalFor(percentiles[i]!, m.move24hPts));
}
