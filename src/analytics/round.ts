/** Rounding of brief numbers: decimal places follow the price so small prices keep their digits. */
import type { Indicators } from '../domain/market.js';

/** Significant digits kept for the latest price; every price-scale value gets the same decimals. */
export const PRICE_SIGNIFICANT_DIGITS = 10;
export const RSI_DECIMALS = 4;

/** Decimals that give `price` PRICE_SIGNIFICANT_DIGITS significant digits (8 for a zero/invalid price). */
export function priceDecimals(price: number): number {
  const magnitude = Math.abs(price);
  if (!Number.isFinite(magnitude) || magnitude === 0) return 8;
  const integerDigits = Math.floor(Math.log10(magnitude)) + 1;
  return Math.min(40, Math.max(0, PRICE_SIGNIFICANT_DIGITS - integerDigits));
}

/** Rounds to `decimals` places like toFixed; never returns -0, NaN or Infinity (those become 0). */
export function roundTo(value: number, decimals: number): number {
  if (!Number.isFinite(value)) return 0;
  const rounded = Number(value.toFixed(decimals));
  return Number.isFinite(rounded) ? rounded + 0 : 0;
}

/** Rounds each non-null indicator: RSI to RSI_DECIMALS, the rest (price-scale) to `decimals`. */
export function roundIndicators(values: Indicators, decimals: number): Indicators {
  const out = { ...values };
  for (const key of Object.keys(out) as (keyof Indicators)[]) {
    const value = out[key];
    if (value !== null) out[key] = roundTo(value, key === 'rsi14' ? RSI_DECIMALS : decimals);
  }
  return out;
}
