/**
 * A person's result in one event against a number: a top-N finish in a tournament ("Top 10
 * Finishers — Beau Hossler", "finish in the Top 10 at ...") or a statistic in a game ("150+ passing
 * yards"). Top 5 implies top 10; 150+ yards implies 100+; a #1 seed is not a top-N finish.
 */
import type { LinkVerdict, MarketText } from '../domain/links.js';
import { VerdictBuilder } from './evidence.js';
import { findDate, fold, isoDate, words, yearFor } from './normalize.js';
import { exceptionalBranches, yesCondition } from './rules-text.js';

export interface PersonResult {
  person: string;
  /** `top 10 finish`, `passing yards`... */
  statistic: string;
  /** At least this many (a stat) or at most this position (a finish). */
  threshold: number;
  /** Words naming the event (the tournament, the game). */
  event: Set<string>;
  date: string | null;
}

const EVENT_STOP = new Set([
  'the',
  'a',
  'at',
  'in',
  'of',
  'vs',
  'game',
  'match',
  'tournament',
  'championship',
  'classic',
  'open',
  'top',
  'finishers',
  'finish',
  'will',
  'scheduled',
  'for',
  'originally',
  'pro',
  'professional',
  'football',
]);

export function parsePersonResult(m: MarketText): PersonResult | null {
  const q = m.question.replace(/\s+/g, ' ').trim();
  const kalshiTop = /^(.+?):\s*top (\d+) finishers?\s*[\u2014-]\s*(.+)$/i.exec(q);
  if (kalshiTop)
    return { person: kalshiTop[3]!.trim(), statistic: 'top-n finish', threshold: Number(kalshiTop[2]), event: eventWords(kalshiTop[1]!), date: null };
  const polyTop = /^will (.+?) finish (?:in )?(?:the )?top (\d+) (?:at|in) (?:the )?(.+?)\??$/i.exec(q);
  if (polyTop) return { person: polyTop[1]!.trim(), statistic: 'top-n finish', threshold: Number(polyTop[2]), event: eventWords(polyTop[3]!), date: null };
  const condition = yesCondition(m.rules) ?? q;
  const stat =
    /^(?:.*?[:\u00b7]\s*)?(?:will\s+)?(.+?)\s+(?:records?|have|has|gets?)?\s*(?:at least\s+)?(\d+)(?:\+|\s+or more)?\s+(passing yards|rushing yards|receiving yards|points|rebounds|assists|strikeouts|hits|home runs|goals|receptions|touchdowns)\b(.*)$/i.exec(
      condition,
    );
  if (stat) {
    const person = stat[1]!
      .replace(/^if\s+/i, '')
      .replace(/\s+records?$/i, '')
      .trim();
    const rest = stat[4] ?? '';
    const date = findDate(rest);
    const year = date ? yearFor(date, m.closeTime) : null;
    // A part of the game ("in the first half", "1H", "first 5 innings") is another statistic than the game's.
    const period = periodOf(fold(`${q} ${condition}`));
    // "250+ passing yards and 2+ passing touchdowns", "30+ points + rebounds": a combination is its own statistic.
    const named = new Set([...fold(`${q} ${condition}`).matchAll(STATISTICS)].map((x) => x[0]));
    const statistic = named.size > 1 ? [...named].sort().join(' + ') : stat[3]!.toLowerCase();
    return {
      person,
      statistic: `${statistic}${period ? ` (${period})` : ''}`,
      threshold: Number(stat[2]),
      event: eventWords(rest.replace(/scheduled.*$/i, '')),
      date: date && year ? isoDate(year, date.month, date.day) : null,
    };
  }
  return null;
}

const STATISTICS =
  /\b(?:(?:passing|rushing|receiving) (?:yards|touchdowns|attempts)|points|rebounds|assists|steals|blocks|three-pointers|threes|strikeouts|hits|home runs|rbis?|goals|saves|shots on goal|receptions|touchdowns|interceptions|sacks|tackles|aces|kills)\b/g;

const PERIODS: ReadonlyArray<[RegExp, string]> = [
  [/\b(?:first|1st) half\b|\b1h\b/, 'first half'],
  [/\b(?:second|2nd) half\b|\b2h\b/, 'second half'],
  [/\b(?:first|1st|second|2nd|third|3rd|fourth|4th) (?:quarter|period)\b|\b[1-4]q\b/, 'a quarter'],
  [/\bfirst \d+ innings\b|\b(?:first|1st) inning\b/, 'first innings'],
  [/\bper game\b|\baverages?\b|\bregular season\b|\bseason\b/, 'season'],
];

function periodOf(folded: string): string | null {
  for (const [pattern, name] of PERIODS) if (pattern.test(folded)) return name;
  return null;
}

function eventWords(text: string): Set<string> {
  return new Set(words(text).filter((w) => !EVENT_STOP.has(w) && !/^20\d\d$/.test(w)));
}

const samePerson = (x: string, y: string) => {
  const [a, b] = [words(x), words(y)];
  return a.length > 0 && a[a.length - 1] === b[b.length - 1] && (a[0] === b[0] || a[0]!.startsWith(b[0]!) || b[0]!.startsWith(a[0]!));
};

/** The events agree when either's words are all in the other's (team names against cities are not compared). */
function eventsAgree(a: Set<string>, b: Set<string>): boolean | null {
  if (a.size === 0 || b.size === 0) return null;
  const inB = [...a].filter((w) => b.has(w)).length;
  return inB === a.size || inB === b.size || inB / Math.max(a.size, b.size) >= 0.6 ? true : inB === 0 ? false : null;
}

export function judgePersonResults(ma: MarketText, a: PersonResult, mb: MarketText, b: PersonResult): LinkVerdict {
  const v = new VerdictBuilder();
  const person = samePerson(a.person, b.person);
  const event = a.statistic === 'top-n finish' ? eventsAgree(a.event, b.event) : a.date && b.date ? a.date === b.date : eventsAgree(a.event, b.event);
  v.compare(
    'subject',
    `${a.person} (${[...a.event].join(' ')}${a.date ? ` ${a.date}` : ''})`,
    `${b.person} (${[...b.event].join(' ')}${b.date ? ` ${b.date}` : ''})`,
    person && event,
  );
  v.compare('proposition', a.statistic, b.statistic);
  v.compare('threshold', String(a.threshold), String(b.threshold));
  v.compare('window', a.date, b.date);
  v.compare('stage', null, null);
  v.compare('yes_side', 'yes', 'yes');
  v.compare('settlement_source', null, null);
  v.compare(
    'mechanism',
    a.statistic === 'top-n finish' ? 'finishing position' : 'statistic at least',
    b.statistic === 'top-n finish' ? 'finishing position' : 'statistic at least',
  );
  if (!person || event === false) return v.verdict('different');
  if (event === null) return v.lack('whether both name the same event').verdict('unresolved');
  if (a.statistic !== b.statistic) return v.verdict('related');
  if (a.threshold !== b.threshold) {
    // A finish of top 5 implies top 10; 150+ yards implies 100+.
    const aStricter = a.statistic === 'top-n finish' ? a.threshold < b.threshold : a.threshold > b.threshold;
    return v.verdict('related', aStricter ? 'a_implies_b' : 'b_implies_a');
  }
  if (!ma.rules.trim() || !mb.rules.trim()) v.risk('rules not given on one venue: ties at the cut-off, withdrawals and voids unread');
  const [ra, rb] = [exceptionalBranches(ma.rules), exceptionalBranches(mb.rules)];
  for (const branch of ra) if (!rb.includes(branch)) v.risk(`${ma.venue} only: ${branch}`);
  for (const branch of rb) if (!ra.includes(branch)) v.risk(`${mb.venue} only: ${branch}`);
  if (/did not play|not take|never takes|snap/.test(fold(`${ma.rules} ${mb.rules}`)))
    v.risk('participation: each venue defines when the player counts as having played');
  return v.verdict('same');
}
