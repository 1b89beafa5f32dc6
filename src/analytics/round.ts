/** Rounding of brief numbers: decimal places follow the price so small prices keep their digits. */
import type { Indicators } from '../domain/market.js';

/** Significant digits kept for the latest price; every price-scale value gets the same decimals. */
const PRICE_SIGNIFICANT_DIGITS = 10;
const RSI_DECIMALS = 4;

/** Decimals that give `price` PRICE_SIGNIFICANT_DIGITS significant digits (8 for a zero/invalid price). */
export function priceDecimals(price: number): number {
  const magnitude = Math.abs(price);
  if (!Number.isFinite(magnitude) || magnitude === 0) return 8;
  const integerDigits = Math.floor(Math.log10(magnitude)) + 1;
  return Math.min(40, Math.max(0, PRICE_SIGNIFICANT_DIGITS - integerDigits));
}

/**
 * 15 significant digits: what a double holds for sure, so only the noise of the last operation goes
 * (1.005 * 100 is 100.49999999999999). Taken off the scaled value before rounding, so a half
 * written in decimal rounds as written.
 */
export const withoutBinaryNoise = (value: number): number => Number(value.toPrecision(15));

/**
 * Rounds to `decimals` places, halves away from zero, in one step on the decimal value (not its
 * binary neighbour: 1.005 -> 1.01); never returns -0, NaN or Infinity (those become 0). The one
 * rounding of every number the API shows: everything before it is computed unrounded.
 */
export function roundTo(value: number, decimals: number): number {
  if (!Number.isFinite(value)) return 0;
  const scale = 10 ** decimals;
  const rounded = Math.round(withoutBinaryNoise(Math.abs(value) * scale)) / scale;
  return Number.isFinite(rounded) ? Math.sign(value) * rounded + 0 : 0;
}

/** A price as shown: PRICE_SIGNIFICANT_DIGITS significant digits. */
export const shownPrice = (price: number): number => roundTo(price, priceDecimals(price));

/** Volumes as shown: at most 8 decimals, the finest an exchange reports (a sum of candles loses its float noise). */
export const VOLUME_DECIMALS = 8;

/**
 * A volume as shown: to VOLUME_DECIMALS, which keeps what an exchange sent and drops a float sum's
 * noise (751.6840999999998 -> 751.6841).
 */
export const shownVolume = (volume: number): number => roundTo(volume, VOLUME_DECIMALS);

/** Rounds each non-null indicator: RSI to RSI_DECIMALS, the rest (price-scale) to `decimals`. */
export function roundIndicators(values: Indicators, decimals: number): Indicators {
  const out = { ...values };
  for (const key of Object.keys(out) as (keyof Indicators)[]) {
    const value = out[key];
    if (value !== null) out[key] = roundTo(value, key === 'rsi14' ? RSI_DECIMALS : decimals);
  }
  return out;
}
