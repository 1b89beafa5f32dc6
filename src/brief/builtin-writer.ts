/**
 * The built-in writer: a short, readable brief composed from the facts alone, no model needed. It is the
 * default, and the fallback whenever a configured model fails, so it must never throw on valid input.
 */
import type { BriefInput, BriefWriter } from './brief-input.js';
import { formatPercent, formatPercentBefore, formatPoints, formatVolume } from './format.js';

export const BUILTIN_WRITER = 'builtin';
const LEAD_MARKETS = 5;
const LEAD_MOVEMENTS = 5;

function marketLine(index: number, m: BriefInput['markets'][number]): string {
  const move = m.move24hPts === null || Math.abs(m.move24hPts) < 0.5 ? 'little changed' : `${formatPoints(m.move24hPts)} in 24h`;
  return `${index + 1}. ${m.question} ${formatPercent(m.prob)} (${move}; ${formatVolume(m.volume24h)} traded on ${m.source}).`;
}

function movementLine(m: BriefInput['movements'][number]): string {
  const direction = m.move24hPts > 0 ? 'rose' : 'fell';
  return `- ${m.question} ${direction} to ${formatPercent(m.prob)} (${formatPoints(m.move24hPts)} in 24h, from ${formatPercentBefore(m.prob, m.move24hPts)}).`;
}

export function composeBuiltinBrief(input: BriefInput): string {
  const { date, markets, movements } = input;
  const parts = [`Morning brief for ${date}.`];
  if (markets.length === 0) {
    parts.push('No prediction market has traded in the last 24 hours yet.');
  } else {
    const total = markets.reduce((sum, m) => sum + m.volume24h, 0);
    parts.push(
      `The ${Math.min(LEAD_MARKETS, markets.length)} most active markets (${formatVolume(total)} traded across the top ${markets.length}):`,
      ...markets.slice(0, LEAD_MARKETS).map((m, i) => marketLine(i, m)),
    );
  }
  if (movements.length === 0) {
    parts.push('No market moved by more than 5 points in the last 24 hours.');
  } else {
    parts.push('Largest movements in the last 24 hours:', ...movements.slice(0, LEAD_MOVEMENTS).map(movementLine));
  }
  return parts.join('\n');
}

export const builtinWriter: BriefWriter = {
  name: BUILTIN_WRITER,
  write: async (input) => composeBuiltinBrief(input),
};
