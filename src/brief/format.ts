/** Number formats shared by the built-in brief and the prompt given to a model. */
import { wholePercentOf } from '../prediction/percent.js';

const { abs } = Math;

/** `$28.0M`, `$640K`, `$9,000`: short enough for a sentence. */
export function formatVolume(volume: number): string {
  if (volume >= 1e9) return `$${(volume / 1e9).toFixed(1)}B`;
  if (volume >= 1e6) return `$${(volume / 1e6).toFixed(1)}M`;
  if (volume >= 1e4) return `$${Math.round(volume / 1e3)}K`;
  return `$${Math.round(volume).toLocaleString('en-US')}`;
}

/** `+12.5 pts`, `-3 pts`: always signed, at most one decimal. */
export function formatPoints(points: number): string {
  // Rounded on the magnitude so that -6.25 and +6.25 both read as 6.3.
  const magnitude = Math.round(abs(points) * 10) / 10;
  return `${points < 0 && magnitude > 0 ? '-' : '+'}${magnitude} pts`;
}

/** Probability 0..1 as a whole percent, exactly as the facade's `prob_pct` (D7: on basis points, 0.285 -> 29). */
export const formatPercent = (prob: number): string => `${wholePercentOf(prob)}%`;

/** Where a market stood before a move, as a whole percent: now less the move (`16%` after `-13.3 pts` was `29%`). */
export const formatPercentBefore = (prob: number, movePts: number): string => `${Math.round(wholePercentOf(prob) - movePts)}%`;
