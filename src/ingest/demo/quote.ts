/** Builds a quote's 24-hour figures from the market's recent 1h candles. */
import { INTERVAL_MS, type Candle, type Quote } from '../../domain/market.js';
import { alignOpenTime } from '../candles.js';
import { roundTo } from './model.js';

const HOUR_MS = INTERVAL_MS['1h'];

/** 1h candles a quote needs: the current one and the 24 before it. */
export const HOURLY_KEPT = 25;

/**
 * `hourly` is the market's 1h series, oldest first, ending with the window holding `t`.
 * change24h compares with the open of the hour bar 24 h before the current one (the price at that hour's
 * start); volume24h sums the current bar and the 23 before it. Both are hour-granular approximations.
 */
export function quoteFromHourly(symbol: string, price: number, t: number, hourly: readonly Candle[]): Quote {
  const current = alignOpenTime(t, '1h');
  const refOpen = current - 24 * HOUR_MS;
  // The first bar at or after the reference hour; with a short history, the oldest bar there is.
  const ref = hourly.find((c) => c.openTime >= refOpen);
  const change = ref === undefined ? 0 : (price / ref.open - 1) * 100;
  let volume = 0;
  for (const c of hourly) if (c.openTime > refOpen && c.openTime <= current) volume += c.volume;
  return {
    symbol,
    price,
    change24h: roundTo(change, 4),
    volume24h: roundTo(volume, 4),
    observedAt: t,
  };
}
