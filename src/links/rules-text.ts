/**
 * Reading a venue's rules: the sentence that says when YES wins (Kalshi: "If <X>, then the market
 * resolves to Yes."; Polymarket: "This market will resolve to "Yes" if <X>."; Polymarket US: "If <X>,
 * this market will settle to Yes."), where the result comes from, and the exceptional branches
 * (postponement, ties, stat corrections) that become basis risk when the propositions agree.
 */
import { fold } from './normalize.js';

const CONDITION_PATTERNS: readonly RegExp[] = [
  /\bif\s+(.+?),?\s+then\s+(?:the|this)\s+market\s+(?:resolves|will resolve|settles|will settle)\s+to\s+"?yes"?/i,
  /\bif\s+(.+?),?\s+(?:the|this)\s+market\s+(?:resolves|will resolve|settles|will settle)\s+to\s+"?yes"?/i,
  /\b(?:resolves|will resolve|settles|will settle)\s+(?:to\s+)?"?yes"?\s+if\s+(.+?)(?:(?<!\b[A-Z])\.\s|\.$|;|$)/i,
];

/** The YES condition the rules state, as written (first sentence that states one); null when none does. */
export function yesCondition(rules: string): string | null {
  const text = rules.replace(/[\u201c\u201d]/g, '"').replace(/\s+/g, ' ');
  for (const pattern of CONDITION_PATTERNS) {
    const match = pattern.exec(text);
    if (match?.[1]) return match[1].trim();
  }
  return null;
}

const SOURCES: ReadonlyArray<[RegExp, string]> = [
  [/cf benchmarks|brti|real[- ]time index/, 'CF Benchmarks index'],
  [/binance/, 'Binance'],
  [/coinbase/, 'Coinbase'],
  [/chainlink/, 'Chainlink'],
  [/pyth/, 'Pyth'],
  [/national weather service|nws|climatological report/, 'National Weather Service'],
  [/wunderground|weather underground/, 'Weather Underground'],
  [/bureau of labor statistics|\bbls\b/, 'Bureau of Labor Statistics'],
  [/federal reserve|fomc/, 'Federal Reserve'],
  [/associated press|\bap\b/, 'Associated Press'],
];

/** The settlement source the texts name, normalised to an institution; null when they name none. */
export function settlementSource(rules: string, resolutionSource?: string | null): string | null {
  const text = fold(`${rules} ${resolutionSource ?? ''}`);
  for (const [pattern, name] of SOURCES) if (pattern.test(text)) return name;
  return null;
}

/** The exceptional branches the rules mention, each as a short phrase, for basis risk. */
export function exceptionalBranches(rules: string): string[] {
  const text = fold(rules);
  const found: string[] = [];
  const postponed = /(?:postponed|delayed|not held|not started|not resumed|rescheduled)[^.]*?within\s+(\w+\s+(?:hours?|days?|weeks?))/.exec(text);
  if (postponed) found.push(`postponement: ${postponed[1]}`);
  else if (/postpone|delayed|rescheduled/.test(text)) found.push('postponement: stated');
  if (/stat corrections?[^.]*not count|corrections? (?:after|made after)[^.]*(?:not|ignored)/.test(text))
    found.push('stat corrections after the event ignored');
  if (/\btie\b|\btied\b|\bdraw\b|dead heat/.test(text)) found.push('ties: a rule of its own');
  if (/\bretire[sd]?\b|\bretirement\b|\bwalkover\b|\bwithdraws?\b|\bwithdrawal\b/.test(text)) found.push('retirement or withdrawal: a rule of its own');
  if (/overtime is included|including overtime|includes overtime/.test(text)) found.push('overtime included');
  if (/fair (?:market )?price|50[-/ ]50|\$0?\.50\b|\bvoid\b/.test(text)) found.push('void: settles at a fair price or 50-50');
  return found;
}
