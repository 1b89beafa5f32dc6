/**
 * Probability arithmetic of D7, done on whole basis points: a 4-decimal probability is an integer
 * number of basis points, so rounding never trips on binary fractions (0.285 * 100 = 28.499…).
 */

/** Probability as whole basis points (0.6234 -> 6234). */
export const basisPoints = (prob: number): number => Math.round(prob * 10_000);

/** D7: at most 4 decimals. */
export const roundProb = (prob: number): number => basisPoints(prob) / 10_000;

/** The probability in percent, exactly (0.6234 -> 62.34). */
export const percentOf = (prob: number): number => basisPoints(prob) / 100;

/** D7: `prob_pct = round(prob * 100)`, halves up (0.285 -> 29). */
export const wholePercentOf = (prob: number): number => Math.round(basisPoints(prob) / 100);

/** D7: `delta_pts = new_pct - old_pct`, one decimal, halves away from zero (so -6.05 mirrors +6.05). */
export function deltaPoints(oldPct: number, newPct: number): number {
  return tenthsOfHundredths(Math.round(newPct * 100) - Math.round(oldPct * 100));
}

/** A move in points (exact to hundredths, as platforms report it) to one decimal, like deltaPoints. */
export const roundPoints = (points: number): number => tenthsOfHundredths(Math.round(points * 100));

/** Whole hundredths of a point to one decimal, halves away from zero. */
const tenthsOfHundredths = (hundredths: number): number => (Math.sign(hundredths) * Math.round(Math.abs(hundredths) / 10)) / 10 || 0;
