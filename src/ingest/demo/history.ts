/** Generates one candle series of the demo backfill: a seeded geometric random walk ending at a known price. */
import { INTERVAL_MS, type Candle, type Interval } from '../../domain/market.js';
import { alignOpenTime } from '../candles.js';
import type { DemoMarket } from './catalogue.js';
import { roundPrice, roundTo, sigmaOver, volumeOver } from './model.js';
import type { Random } from './random.js';

// Aliased once: inside Node vm contexts (Jest) every lookup of the global `Math` is slow, and this is hot code.
const { abs, exp, floor, max, min, sqrt } = Math;

/** A trend regime: a constant drift that starts part-way through the history. */
export interface Regime {
  /** Drift per candle, in units of the candle's standard deviation (0 = neutral, > 0 up). */
  drift: number;
  /** Fraction of the history (0..1) after which the drift applies. */
  start: number;
}

interface HistoryParams {
  market: DemoMarket;
  interval: Interval;
  /** The series ends with the (usually partial) window holding this time. */
  end: number;
  /** Unrounded price at `end`: the last close. */
  endPrice: number;
  length: number;
  regime: Regime;
  random: Random;
}

/** Wick length relative to the candle's standard deviation. */
const WICK = 0.5;

/**
 * `length` consecutive candles, oldest first, the last one being the window that holds `end`.
 * The walk runs backwards from `endPrice`, which is what lets every interval end at the same price.
 */
export function generateHistory(p: HistoryParams): Candle[] {
  const { market, interval, random, length: n } = p;
  const ms = INTERVAL_MS[interval];
  const lastOpen = alignOpenTime(p.end, interval);
  const sigma = sigmaOver(market.volatility, ms);
  const regimeFrom = floor(p.regime.start * n);

  // prices[i] is the open of candle i and prices[i + 1] its close.
  const prices = new Float64Array(n + 1);
  const moves = new Float64Array(n);
  const spans = new Float64Array(n);
  prices[n] = p.endPrice;
  for (let i = n - 1; i >= 0; i--) {
    // Only part of the last window has elapsed, so its move and its volume are proportionally smaller.
    const span = i === n - 1 ? (p.end - lastOpen) / ms : 1;
    const s = sigma * sqrt(span);
    const z = random.normal();
    const drift = (i >= regimeFrom ? p.regime.drift * sigma * span : 0) - 0.5 * s * s;
    prices[i] = prices[i + 1]! / exp(drift + s * z);
    moves[i] = z;
    spans[i] = span;
  }

  const d = market.decimals;
  const candles: Candle[] = [];
  for (let i = 0; i < n; i++) {
    const span = spans[i]!;
    const s = sigma * sqrt(span);
    const open = roundPrice(prices[i]!, d);
    const close = roundPrice(prices[i + 1]!, d);
    // Rounding is monotonic, so a wick drawn outward from the rounded body stays outside it.
    const high = roundTo(max(open, close) * exp(WICK * s * abs(random.normal())), d);
    const bodyLow = min(open, close);
    const low = min(bodyLow, roundPrice(bodyLow * exp(-WICK * s * abs(random.normal())), d));
    candles.push({
      symbol: market.symbol,
      interval,
      openTime: lastOpen - (n - 1 - i) * ms,
      open,
      high,
      low,
      close,
      volume: volumeOver(market.dailyVolume, ms * span, random, moves[i]!),
    });
  }
  return candles;
}
