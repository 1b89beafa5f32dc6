import { roundTo, withoutBinaryNoise } from '../analytics/round.js';

/**
 * Probability arithmetic of D7, done on whole basis points: a 4-decimal probability is an integer
 * number of basis points, so rounding never trips on binary fractions (0.285 * 100 = 28.499…).
 */

/**
 * Probability as whole basis points (0.6234 -> 6234), halves up. The 12-digit pass first removes
 * the binary noise of the product (0.30265 * 10 000 is 3026.4999999999995), so a half rounds up.
 */
export const basisPoints = (prob: number): number => Math.round(withoutBinaryNoise(prob * 10_000));

/** D7: at most 4 decimals. */
export const roundProb = (prob: number): number => basisPoints(prob) / 10_000;

/** The probability in percent, exactly (0.6234 -> 62.34). */
export const percentOf = (prob: number): number => basisPoints(prob) / 100;

/** D7: `prob_pct = round(prob * 100)`, halves up (0.285 -> 29). */
export const wholePercentOf = (prob: number): number => Math.round(basisPoints(prob) / 100);

/** D7: `delta_pts = new_pct - old_pct`, one decimal, halves away from zero (so -6.05 mirrors +6.05). */
export function deltaPoints(oldPct: number, newPct: number): number {
  const hundredths = Math.round(newPct * 100) - Math.round(oldPct * 100);
  return (Math.sign(hundredths) * Math.round(Math.abs(hundredths) / 10)) / 10 || 0;
}

/** A move in points, unrounded, to one decimal like deltaPoints (halves away from zero), in one step. */
export const roundPoints = (points: number): number => roundTo(points, 1);
