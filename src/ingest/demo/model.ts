/** The small bits of price/volume maths both the history generator and the live tick use. */
import type { Random } from './random.js';
import { DAY_MS } from '../../domain/time.js';

// Aliased once: inside Node vm contexts (Jest) every lookup of the global `Math` is slow, and this is hot code.
const { abs, exp, max, round, sqrt } = Math;

/** The demo trades every market around the clock, so volatility scales over calendar time. */
const YEAR_MS = 365.25 * DAY_MS;

/** Standard deviation of the log return over `ms` for an annualised volatility (sqrt-time scaling). */
export function sigmaOver(volatility: number, ms: number): number {
  return volatility * sqrt(max(0, ms) / YEAR_MS);
}

const POW10 = Array.from({ length: 16 }, (_, i) => 10 ** i);
const pow10 = (n: number): number => POW10[n] ?? 10 ** n;

/** Rounds to `decimals` places. Monotonic, so rounding keeps high >= close >= low. */
export function roundTo(x: number, decimals: number): number {
  const f = pow10(decimals);
  return round(x * f) / f;
}

/** A quoted price: rounded to the market's tick and never below one tick, so it stays positive. */
export function roundPrice(x: number, decimals: number): number {
  return max(1 / pow10(decimals), roundTo(x, decimals));
}

/**
 * Volume traded over `ms` around the market's typical daily volume: log-normal noise, and busier
 * when the price moved more (|z| is the size of the move in standard deviations).
 */
export function volumeOver(dailyVolume: number, ms: number, random: Random, z: number): number {
  const noise = exp(0.4 * random.normal() - 0.08); // mean 1 (exp(-σ²/2) with σ = 0.4)
  const activity = (1 + 0.5 * abs(z)) / 1.4; // E[1 + 0.5|Z|] ≈ 1.4
  return roundTo(dailyVolume * (max(0, ms) / DAY_MS) * noise * activity, 4);
}
