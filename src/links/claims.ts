/**
 * Price claims: a market whose proposition is one asset's price against a fixed threshold, at an
 * instant, at a session's close, or touched within a window. Anything else (a move relative to another
 * day, a race against another event, earnings, a market cap, a name that is not the asset) has none:
 * a wrong claim would link a market to an instrument it is not about.
 */
import type { MarketText, PriceClaim, PriceClaimKind, PriceComparator, StrikeFields } from '../domain/links.js';
import { type AssetName, findAsset } from './assets.js';
import { CLOCK_WITH_ZONE, findDate, fold, NEW_YORK, parseAmount, parseClock, yearFor, zonedTime, zoneOf } from './normalize.js';

const RELATIVE =
  /\b(go(?:es)? (?:up|down)|up or down|higher than|lower than|than (?:on|it|at|the)|next \d+ (?:hours?|days?|minutes?)|compared|outperform|flip(?:pen)?s?|ratio)\b/;
const EARNINGS = /\b(earnings|eps|per share|revenue|guidance|dividend)\b/;
const NOT_A_PRICE = /\b(market ?cap|fdv|valuation|valued|net worth|mcap|etf flows?|holdings?|sells?|buys?|reserve|treasury|airdrop|launch)\b/;
/** A `before` that is not followed by a date is a race against another event. */
const RACE = /\bbefore\s+(?!(?:the end of|end of|eoy|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|20\d\d|\d))/;
const PRICE_CONTEXT =
  /\b(price|prices|stock|shares?|close|closes|closing|trade|trades|trading|hit|hits|reach|reaches|above|below|exceed|exceeds|over|under|per ounce|oz)\b/;

const AMOUNT = String.raw`\$\s?(\d[\d,]*(?:\.\d+)?)\s?(k|m|b|t|thousand|million|billion|trillion)?\b`;
const BARE_AMOUNT = String.raw`(\d[\d,]*(?:\.\d+)?)\s?(k)?\b`;
const AMOUNTS = new RegExp(AMOUNT, 'g');
const BARE_THRESHOLD = new RegExp(String.raw`\b(?:above|below|over|under|exceed|hit|reach)\s+${BARE_AMOUNT}`);

interface Bound {
  comparator: PriceComparator;
  threshold: number;
  upper?: number;
}

/** The claim a market makes about an asset's price, or null when it makes none. */
export function priceClaim(m: MarketText, trackedSymbol: (asset: string) => string | null): PriceClaim | null {
  const question = fold(m.question);
  const found = findAsset(question);
  if (!found || refused(question, found.asset)) return null;
  const bound = strikeBound(m.strike) ?? boundFromText(question);
  if (!bound) return null;
  const timing = claimTiming(question, m, found.asset);
  if (!timing) return null;
  const claim: PriceClaim = {
    asset: found.asset.code,
    symbol: trackedSymbol(found.asset.code),
    comparator: bound.comparator,
    threshold: bound.threshold,
    kind: timing.kind,
    until: timing.until,
  };
  if (bound.upper !== undefined) claim.upper = bound.upper;
  if (timing.from !== undefined) claim.from = timing.from;
  return claim;
}

function refused(question: string, asset: AssetName): boolean {
  if (RELATIVE.test(question) || EARNINGS.test(question) || NOT_A_PRICE.test(question) || RACE.test(question)) return true;
  if (/all[- ]time high|\bath\b/.test(question)) return true;
  // A company's or a commodity's name is the asset only where the question speaks of a price.
  if (asset.assetClass !== 'crypto' && !PRICE_CONTEXT.test(question)) return true;
  return false;
}

/**
 * Kalshi's strike fields, which win over the title. `greater` than 82,399.99 is "$82,400 or above" in a
 * market quoted in cents, so a floor ending in .99 becomes `at_or_above` the next cent.
 */
export function strikeBound(strike: StrikeFields | null | undefined): Bound | null {
  if (!strike) return null;
  const { floor, cap } = strike;
  const has = (x: number | null | undefined): x is number => typeof x === 'number' && Number.isFinite(x);
  switch (strike.type) {
    case 'greater':
      if (!has(floor)) return null;
      return endsInNinetyNine(floor) ? { comparator: 'at_or_above', threshold: nextCent(floor) } : { comparator: 'above', threshold: floor };
    case 'greater_or_equal':
      return has(floor) ? { comparator: 'at_or_above', threshold: floor } : null;
    case 'less':
      return has(cap) ? { comparator: 'below', threshold: cap } : null;
    case 'less_or_equal':
      return has(cap) ? { comparator: 'at_or_below', threshold: cap } : null;
    case 'between':
      return has(floor) && has(cap) ? { comparator: 'between', threshold: floor, upper: cap } : null;
    default:
      return null;
  }
}

const endsInNinetyNine = (x: number) => Math.round(x * 100) % 100 === 99;
const nextCent = (x: number) => Math.round(x * 100 + 1) / 100;

/** The comparator and threshold the question states, or null when it states no single price. */
export function boundFromText(question: string): Bound | null {
  const range = /(?:between\s+)?\$\s?(\d[\d,]*(?:\.\d+)?)\s?(k)?\s*(?:and|to|-)\s*\$?\s?(\d[\d,]*(?:\.\d+)?)\s?(k)?\b/.exec(question);
  if (range && (/\bbetween\b/.test(question) || /\bto\b|-/.test(range[0]))) {
    const low = parseAmount(range[1]!, range[2]);
    const high = parseAmount(range[3]!, range[4]);
    if (low !== null && high !== null && high > low) return { comparator: 'between', threshold: low, upper: high };
  }
  const amounts = [...question.matchAll(AMOUNTS)];
  let amount: { value: number; index: number; end: number } | null = null;
  if (amounts.length === 1) {
    const [match] = amounts;
    if (match![2] && /^(b|t|billion|trillion)$/.test(match![2])) return null;
    const value = parseAmount(match![1]!, match![2]);
    if (value !== null) amount = { value, index: match!.index, end: match!.index + match![0].length };
  } else if (amounts.length === 0) {
    // Polymarket's hourly titles drop the dollar sign: "Bitcoin above 82,400 on May 12, 4AM ET?"
    const bare = BARE_THRESHOLD.exec(question);
    const value = bare ? parseAmount(bare[1]!, bare[2]) : null;
    if (bare && value !== null && value >= 10) {
      const index = bare.index + bare[0].lastIndexOf(bare[1]!);
      amount = { value, index, end: bare.index + bare[0].length };
    }
  }
  if (!amount) return null;
  const comparator = comparatorAround(question, amount.index, amount.end);
  return comparator ? { comparator, threshold: amount.value } : null;
}

/** The comparator the words around the amount state. */
function comparatorAround(question: string, start: number, end: number): PriceComparator | null {
  const before = question.slice(Math.max(0, start - 40), start);
  const after = question.slice(end, end + 20);
  if (/^\s*(?:or (?:above|higher|more)|\+|and (?:above|up))/.test(after) || /(at or above|at least|greater than or equal to|>=|≥)\s*$/.test(before))
    return 'at_or_above';
  if (/^\s*(?:or (?:below|lower|less)|and (?:below|under))/.test(after) || /(at or below|at most|less than or equal to|<=|≤)\s*$/.test(before))
    return 'at_or_below';
  if (/(dip|dips|fall|falls|drop|drops|sink|sinks|crash|crashes)\s+(?:to|below|under)?\s*$/.test(before))
    return /below|under/.test(before) ? 'below' : 'at_or_below';
  if (/(below|under|less than|lower than|<)\s*$/.test(before)) return 'below';
  if (/(exceed|exceeds|above|over|greater than|more than|higher than|>)\s*(?:the price of)?\s*$/.test(before)) return 'above';
  if (/(hit|hits|reach|reaches|touch|touches|trade at|to)\s*$/.test(before) || /^\s*(?:in|by|before|on)\b/.test(after) || /^\s*\??$/.test(after))
    return 'at_or_above';
  return null;
}

interface Timing {
  kind: PriceClaimKind;
  from?: number;
  until: number;
}

/** The claim's kind and its instant or window, from the question (and the rules for an unstated hour). */
function claimTiming(question: string, m: MarketText, asset: AssetName): Timing | null {
  const date = findDate(question);
  const year = date ? yearFor(date, m.closeTime) : null;
  const clock = CLOCK_WITH_ZONE.exec(question);
  const isClose = /\b(close|closes|closing|eod|end of day)\b/.test(question);
  const isTouch = /\b(hit|hits|reach|reaches|touch|touches|trade|trades|dip|dips|at any (?:point|time)|before|by)\b/.test(question);
  if (date && year !== null && clock && !isClose) {
    const hm = parseClock(clock[1]!);
    if (!hm) return null;
    return { kind: 'at', until: zonedTime(year, date.month, date.day, hm[0], hm[1], zoneOf(clock[2])) };
  }
  if (date && year !== null && isClose) {
    // A stock's session closes at 4pm in New York; a crypto or commodity "close" is the UTC day's.
    const until =
      asset.assetClass === 'stock' || asset.assetClass === 'index'
        ? zonedTime(year, date.month, date.day, 16, 0, NEW_YORK)
        : Date.UTC(year, date.month - 1, date.day + 1);
    return { kind: 'close', until };
  }
  const window = touchWindow(question, m.closeTime);
  if (window && (isTouch || !date || window.period)) return { kind: 'touch', ...(window.from !== undefined ? { from: window.from } : {}), until: window.until };
  if (date && year !== null && isTouch && !window) {
    // "reach $90,000 on May 11": at any time that day, New York's.
    return { kind: 'touch', from: zonedTime(year, date.month, date.day, 0, 0, NEW_YORK), until: zonedTime(year, date.month, date.day + 1, 0, 0, NEW_YORK) };
  }
  if (date && year !== null) {
    // "above $88,000 on May 11": the hour is the rules' (Polymarket's daily markets read 12:00 ET).
    const ruled = CLOCK_WITH_ZONE.exec(fold(m.rules));
    const hm = ruled ? parseClock(ruled[1]!) : null;
    if (ruled && hm) return { kind: 'at', until: zonedTime(year, date.month, date.day, hm[0], hm[1], zoneOf(ruled[2])) };
    return null;
  }
  return null;
}

interface Window {
  from?: number;
  until: number;
  /** The window is a named period (a month, a year), not just a deadline. */
  period: boolean;
}

/** "in 2026", "in February 2026", "by December 31, 2026", "before Jan 1": the window a touch is read in. */
export function touchWindow(question: string, closeTime: number | null): Window | null {
  const month =
    /\b(?:in|during)\s+(jan(?:uary)?|feb(?:ruary|urary|uary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?(?:\s+(20\d{2}))?/.exec(
      question,
    );
  if (month) {
    const monthIndex = fold(month[1]!).slice(0, 3);
    const n = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'].indexOf(monthIndex) + 1;
    const year = month[2] ? Number(month[2]) : yearFor({ year: null, month: n, day: 1 }, closeTime);
    if (year === null) return null;
    return { from: zonedTime(year, n, 1, 0, 0, NEW_YORK), until: zonedTime(year, n + 1, 1, 0, 0, NEW_YORK), period: true };
  }
  const year = /\b(?:in|during)\s+(20\d{2})\b/.exec(question);
  if (year) {
    const y = Number(year[1]);
    return { from: zonedTime(y, 1, 1, 0, 0, NEW_YORK), until: zonedTime(y + 1, 1, 1, 0, 0, NEW_YORK), period: true };
  }
  const endOfYear = /\bby (?:the )?(?:end of|eoy)\s*(20\d{2})?\b/.exec(question);
  if (endOfYear) {
    const y = endOfYear[1] ? Number(endOfYear[1]) : yearFor({ year: null, month: 12, day: 31 }, closeTime);
    return y === null ? null : { until: zonedTime(y + 1, 1, 1, 0, 0, NEW_YORK), period: false };
  }
  const deadline = /\b(by|before)\s+(.*)$/.exec(question);
  const date = deadline ? findDate(deadline[2]!) : null;
  if (deadline && date) {
    const y = yearFor(date, closeTime);
    if (y === null) return null;
    // "by Dec 31" includes that day; "before Dec 31" ends as it starts.
    const day = deadline[1] === 'by' ? date.day + 1 : date.day;
    return { until: zonedTime(y, date.month, day, 0, 0, NEW_YORK), period: false };
  }
  return null;
}
