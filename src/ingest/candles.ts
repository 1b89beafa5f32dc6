/** Candle bookkeeping shared by every feed: window alignment and folding one trade into the current bar. */
import { INTERVAL_MS, type Candle, type Interval } from '../domain/market.js';

/**
 * Start of the window of `interval` that holds `t` (epoch ms). Every interval divides a day evenly and
 * the epoch is 00:00 UTC, so a plain floor aligns 4h bars to 00/04/08… UTC and 1d bars to midnight UTC.
 */
export function alignOpenTime(t: number, interval: Interval): number {
  const ms = INTERVAL_MS[interval];
  return Math.floor(t / ms) * ms;
}

/**
 * Folds one trade (or price observation) into the current candle and returns the new current candle.
 * - no candle yet, or `t` in a later window: a new candle opens at `price`;
 * - `t` in the same window: high/low/close move and `volume` adds up;
 * - `t` in an earlier window (a late trade): the candle comes back unchanged, since a closed bar is not
 *   amended from here.
 * Never mutates its input.
 */
export function applyTrade(candle: Candle | undefined, symbol: string, interval: Interval, t: number, price: number, volume: number): Candle {
  if (!Number.isFinite(t)) throw new RangeError(`applyTrade: bad time ${t}`);
  if (!(Number.isFinite(price) && price > 0)) throw new RangeError(`applyTrade: bad price ${price}`);
  if (!(Number.isFinite(volume) && volume >= 0)) throw new RangeError(`applyTrade: bad volume ${volume}`);
  if (candle !== undefined && (candle.symbol !== symbol || candle.interval !== interval)) {
    // Mixing series would silently corrupt both; this is a caller bug.
    throw new Error(`applyTrade: candle ${candle.symbol} ${candle.interval} is not ${symbol} ${interval}`);
  }
  const openTime = alignOpenTime(t, interval);
  if (candle === undefined || openTime > candle.openTime) {
    return { symbol, interval, openTime, open: price, high: price, low: price, close: price, volume };
  }
  if (openTime < candle.openTime) return candle;
  return {
    ...candle,
    high: Math.max(candle.high, price),
    low: Math.min(candle.low, price),
    close: price,
    volume: candle.volume + volume,
  };
}
