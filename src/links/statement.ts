/**
 * Any other market: the YES condition its rules state, as the names it mentions, its window, its
 * numbers and its remaining words (synonyms merged: "has won" is "wins", "before Oct 1" is "by Sep 30").
 * Only two conditions stated in rules, with the same names, window, numbers and words, are `same`;
 * a differing qualifier ("primary", "in person", "U.S.") makes the pair `related`; anything else that
 * differs leaves it `unresolved`. Titles alone never give `same`.
 */
import type { LinkImplication, LinkVerdict, MarketText } from '../domain/links.js';
import { VerdictBuilder } from './evidence.js';
import { fold, MONTH_PATTERN, monthNumber, NEW_YORK, yearFor, zonedTime } from './normalize.js';
import { settlementSource, yesCondition } from './rules-text.js';

export interface Statement {
  /** The condition as read (the rules' sentence, else the question). */
  text: string;
  fromRules: boolean;
  names: string[];
  window: { from: number | null; until: number } | null;
  windowText: string | null;
  numbers: string[];
  words: Set<string>;
  negated: boolean;
}

const SYNONYMS: ReadonlyArray<[RegExp, string]> = [
  // Winning an election is winning its runoff: the clause clarifies, it does not qualify.
  [/,?\s*including any (?:potential )?runoffs?\b/g, ' '],
  [/\b(?:the )?(?:upper bound of (?:the )?)?(?:target )?(?:federal funds|fed funds|interest) (?:target )?(?:rates?|range)\b|\brates\b/g, 'rate'],
  // "wins the 2028 Democratic presidential nomination" is "is the 2028 Democratic presidential nominee".
  [/\bwins? (?:the )?((?:[\w-]+ ){0,4}?)nomination\b/g, '$1nominee'],
  [/\bbecomes?\b/g, 'is'],
  [/\b(?:is|are|be|been) officially declared (?:the )?winner of\b/g, 'wins'],
  [/\b(?:is|are) declared (?:the )?winner of\b/g, 'wins'],
  [/\b(?:has|have) won\b|\bwon\b|\bwin\b|\bwinner of\b|\bwinner\b/g, 'wins'],
  [/\bat least\b|\bor more\b|\bor above\b|\bor higher\b|\bgreater than or equal to\b/g, ' gte '],
  [/\bat most\b|\bor less\b|\bor below\b|\bor lower\b|\bless than or equal to\b/g, ' lte '],
  [/\bmore than\b|\bgreater than\b|\bhigher than\b|\babove\b|\bexceeds?\b|\bover\b/g, ' gt '],
  [/\bless than\b|\blower than\b|\bbelow\b|\bunder\b/g, ' lt '],
  [/\bbasis points?\b|\bbps\b/g, 'bp'],
  [/\bdecreases?\b|\blowers?\b|\bcuts?\b/g, 'cut'],
  [/\bincreases?\b|\braises?\b|\bhikes?\b/g, 'hike'],
  [/\bu\.s\.?a?\b|\bunited states\b|\busa\b/g, 'us'],
  [/\bglobally\b/g, 'global'],
  [/\breleases?d?\b/g, 'release'],
  [/\bconfirms?\b|\bconfirmed\b/g, 'confirm'],
  [/\bmeets?\b|\bmeeting with\b/g, 'meet'],
];

const FILLER = new Set(
  'the a an of in on at to for by with and or is are be been will would its their his her this that market settle settles resolve resolves yes no if then than as from any which who has have had was were it into during officially declared including'.split(
    ' ',
  ),
);
/** Words that change what is asked when only one side has them. */
const QUALIFIERS = new Set(
  'primary primaries runoff nominee nomination nominated party candidate seed seeded top us global phone calls call person in-person virtual round first second third final semifinal quarterfinal series season episode week month quarter year annual weekly daily popular electoral vote votes majority plurality gte lte gt lt cut hike hold pause not never without before after recession core headline yoy mom'.split(
    ' ',
  ),
);

export function parseStatement(m: MarketText): Statement {
  const ruled = yesCondition(m.rules);
  const text = (ruled ?? m.question).replace(/\s+/g, ' ').trim();
  // A deadline the YES sentence leaves out may stand in a later one ("If no such meeting occurs by
  // June 30, 2026, 11:59 PM ET, this market will resolve to "No""): read from the rest of the rules.
  const window = windowOf(text, m.closeTime) ?? (ruled !== null ? laterWindow(m.rules, ruled, m.closeTime) : null);
  let folded = fold(text);
  for (const [pattern, replacement] of SYNONYMS) folded = folded.replace(pattern, replacement);
  const withoutWindow = window ? folded.replace(window.pattern, ' ') : folded;
  const numbers = [...withoutWindow.matchAll(/\d+(?:\.\d+)?%?/g)].map((x) => x[0]);
  const wordList = withoutWindow
    .replace(/\d+(?:\.\d+)?(?:st|nd|rd|th)?%?/g, ' ')
    .split(/[^a-z#-]+/)
    .filter((w) => w.length > 1 && !FILLER.has(w));
  return {
    text,
    fromRules: ruled !== null,
    names: namesIn(text),
    window: window ? { from: window.from, until: window.until } : null,
    windowText: window?.text ?? null,
    numbers,
    words: new Set(wordList),
    negated: /\b(?:not|never|fails? to)\b/.test(folded),
  };
}

/** Capitalised runs (proper names), folded: "Donald Trump", "Delcy Rodriguez", "Grok 5"; dates and boilerplate dropped. */
function namesIn(text: string): string[] {
  const runs = text.match(/\b[A-Z][\p{L}'.-]*(?:\s+(?:[A-Z][\p{L}'.-]*|\d+|de|la|van|von|of))*\b/gu) ?? [];
  const names = runs.map((run) => {
    const tokens = run.trim().split(/\s+/);
    while (tokens.length > 0 && LEADING.test(tokens[0]!)) tokens.shift();
    if (tokens.length === 0 || BOILERPLATE.test(tokens[0]!) || tokens.every((t) => /^\d+$/.test(t))) return '';
    return fold(tokens.join(' ')).replace(/[.']/g, '');
  });
  return [...new Set(names)].filter((name) => name.length > 1);
}

const LEADING = /^(If|This|The|Will|In|On|By|Before|After|An?|At|For)$/;
const BOILERPLATE =
  /^(Yes|No|Outcome|Otherwise|Contract|Issuance|ET|EST|EDT|PM|AM|UTC|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|January|February|March|April|June|July|August|September|October|November|December)\.?$/;

interface WindowMatch {
  from: number | null;
  until: number;
  text: string;
  pattern: RegExp;
}

const DATE = String.raw`(${MONTH_PATTERN})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s*(20\d{2})?`;

/** "before Oct 1, 2026", "by September 30, 2026, 11:59 PM ET", "in Sep 2026", "in 2026": the window YES must happen in. */
function windowOf(text: string, closeTime: number | null): WindowMatch | null {
  const t = fold(text);
  const day = (month: string, d: string, y: string | undefined) => {
    const n = monthNumber(month)!;
    const year = yearFor({ year: y ? Number(y) : null, month: n, day: Number(d) }, closeTime);
    return year === null ? null : { year, month: n, day: Number(d) };
  };
  const deadline = new RegExp(
    String.raw`\b(by|before|no later than|on or before|between contract issuance and)\s+(?:the end of\s+)?${DATE}(?:,?\s*(?:at\s+)?11:59\s*(?:pm|p\.m\.)\s*(?:et|est|edt)?)?`,
  ).exec(t);
  if (deadline) {
    const d = day(deadline[2]!, deadline[3]!, deadline[4]);
    if (d) {
      const endOfDay = deadline[1] === 'before' ? zonedTime(d.year, d.month, d.day, 0, 0, NEW_YORK) : zonedTime(d.year, d.month, d.day + 1, 0, 0, NEW_YORK);
      return {
        from: null,
        until: endOfDay,
        text: `until ${new Date(endOfDay).toISOString().slice(0, 16)}Z`,
        pattern: new RegExp(escapeRegExp(deadline[0]), 'g'),
      };
    }
  }
  const month = new RegExp(String.raw`\b(?:in|during)\s+(${MONTH_PATTERN})\.?,?\s+(20\d{2})\b`).exec(t);
  if (month) {
    const n = monthNumber(month[1]!)!;
    const y = Number(month[2]);
    return {
      from: zonedTime(y, n, 1, 0, 0, NEW_YORK),
      until: zonedTime(y, n + 1, 1, 0, 0, NEW_YORK),
      text: `${y}-${String(n).padStart(2, '0')}`,
      pattern: new RegExp(escapeRegExp(month[0]), 'g'),
    };
  }
  const endOfYear = /\b(?:by|before) (?:the )?end of (20\d{2})\b/.exec(t);
  if (endOfYear) {
    const y = Number(endOfYear[1]);
    return { from: null, until: zonedTime(y + 1, 1, 1, 0, 0, NEW_YORK), text: `until end of ${y}`, pattern: new RegExp(escapeRegExp(endOfYear[0]), 'g') };
  }
  return null;
}

/** A window stated outside the YES sentence; its pattern matches nothing in the condition. */
function laterWindow(rules: string, condition: string, closeTime: number | null): WindowMatch | null {
  const rest = rules
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, ' ')
    .replace(condition, ' ');
  const found = windowOf(rest, closeTime);
  return found ? { ...found, pattern: /(?!)/g } : null;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const setText = (s: Set<string>) => [...s].sort().join(' ');

export function judgeStatements(ma: MarketText, a: Statement, mb: MarketText, b: Statement): LinkVerdict {
  const v = new VerdictBuilder();
  const sharedNames = a.names.filter((n) => b.names.some((o) => o === n || o.includes(n) || n.includes(o)));
  const among = (name: string | undefined, names: string[]) => name !== undefined && names.some((o) => o === name || o.includes(name) || name.includes(o));
  // The first name a condition mentions is what it is about: when neither side mentions the other's, they are about two things.
  const leadsDiffer = a.names.length > 0 && b.names.length > 0 && !among(a.names[0], b.names) && !among(b.names[0], a.names);
  // Both lead with a name the other mentions: one subject (what else they name is compared as words).
  const leadsShared = among(a.names[0], b.names) && among(b.names[0], a.names);
  const subject = a.names.length === 0 || b.names.length === 0 ? null : sharedNames.length === 0 || leadsDiffer ? false : leadsShared ? true : null;
  v.compare('subject', a.names.join(', ') || null, b.names.join(', ') || null, subject);
  const onlyA = [...a.words].filter((w) => !b.words.has(w));
  const onlyB = [...b.words].filter((w) => !a.words.has(w));
  const wordsAgree = onlyA.length === 0 && onlyB.length === 0;
  v.compare('proposition', a.text, b.text, wordsAgree && a.negated === b.negated ? true : null);
  const numbersAgree = v.compare('threshold', a.numbers.join(' ') || null, b.numbers.join(' ') || null, a.numbers.join(' ') === b.numbers.join(' '));
  const windowAgrees = v.compare(
    'window',
    a.windowText,
    b.windowText,
    a.window === null && b.window === null ? null : a.window?.until === b.window?.until && a.window?.from === b.window?.from,
  );
  v.compare('stage', null, null);
  v.compare('yes_side', a.negated ? 'not' : 'yes', b.negated ? 'not' : 'yes');
  const [sa, sb] = [settlementSource(ma.rules, ma.resolutionSource), settlementSource(mb.rules, mb.resolutionSource)];
  v.compare('settlement_source', sa, sb);
  const qualifiers = [...onlyA, ...onlyB].filter((w) => QUALIFIERS.has(w));
  v.compare('mechanism', setText(new Set(onlyA)) || null, setText(new Set(onlyB)) || null, wordsAgree);

  if (subject === false) return v.verdict('different');
  if (!a.fromRules || !b.fromRules) return v.lack('the rules of one venue: titles alone never make a pair the same').verdict('unresolved');
  if (subject === null) return v.lack('the names both conditions are about').verdict('unresolved');
  if (qualifiers.length > 0 || !numbersAgree) return v.verdict('related', windowImplication(a, b, wordsAgree && numbersAgree === true));
  if (windowAgrees === false) return v.verdict('related', windowImplication(a, b, wordsAgree));
  if (!wordsAgree)
    return v
      .lack(`whether the conditions' wording differs in substance: "${setText(new Set(onlyA))}" against "${setText(new Set(onlyB))}"`)
      .verdict('unresolved');
  if (a.negated !== b.negated) return v.lack('whether the event has exactly two outcomes (a negation is inverse only then)').verdict('unresolved');
  // "A beats B" and "B beats A" have the same words: the shared names must come in one order.
  const order = (names: string[], other: string[]) =>
    names.filter((n) => among(n, other)).map((n) => other.findIndex((o) => o === n || o.includes(n) || n.includes(o)));
  const inOrder = order(a.names, b.names).every((index, i, all) => i === 0 || index >= all[i - 1]!);
  if (!inOrder) return v.lack('whether the names play the same roles: they come in another order').verdict('unresolved');
  // What the rules define after the YES sentence ("phone calls count", "core CPI", "the third estimate")
  // is part of the condition: a definition only one venue states leaves the pair unresolved.
  const [da, db] = [definitions(ma), definitions(mb)];
  const onlyOne = [...[...da].filter((d) => !db.has(d)).map((d) => `${ma.venue}: ${d}`), ...[...db].filter((d) => !da.has(d)).map((d) => `${mb.venue}: ${d}`)];
  if (onlyOne.length > 0)
    return v.lack(`whether a definition only one venue's rules state changes the condition (${onlyOne.join('; ')})`).verdict('unresolved');
  if (sa !== sb && sa && sb) v.risk(`settlement source: ${sa} against ${sb}`);
  return v.verdict('same');
}

const DEFINITIONS: ReadonlyArray<[RegExp, string]> = [
  [/\bphone\b|\bvideo\b|\bvirtual(?:ly)?\b|\bremote(?:ly)?\b|\bteleconferenc/, 'calls or virtual meetings'],
  [/\bin[- ]person\b/, 'in person'],
  [/\bcore\b|\b(?:less|excluding) food and energy\b/, 'core'],
  [/\byear[- ]over[- ]year\b|\byoy\b|\b12[- ]month (?:change|increase|rate)\b/, 'year over year'],
  [/\bmonth[- ]over[- ]month\b|\bmom\b|\bmonthly (?:change|increase)\b/, 'month over month'],
  [/\bnot seasonally adjusted\b|\bunadjusted\b/, 'not seasonally adjusted'],
  [/(?<!not )\bseasonally adjusted\b/, 'seasonally adjusted'],
  [/\badvance estimate\b|\b(?:first|initial) estimate\b/, 'the first estimate'],
  [/\b(?:second|third|final) estimate\b/, 'a later estimate'],
];

/** The definitions a market's texts state, anywhere in the rules. */
function definitions(m: MarketText): Set<string> {
  const text = fold(`${m.question} ${m.rules}`);
  return new Set(DEFINITIONS.filter(([pattern]) => pattern.test(text)).map(([, name]) => name));
}

/** An event in a window implies it happening in any window containing it, when nothing else differs. */
function windowImplication(a: Statement, b: Statement, restAgrees: boolean): LinkImplication | undefined {
  if (!restAgrees || !a.window || !b.window || a.negated || b.negated) return undefined;
  const start = (w: { from: number | null }) => w.from ?? Number.NEGATIVE_INFINITY;
  if (start(a.window) >= start(b.window) && a.window.until <= b.window.until) return 'a_implies_b';
  if (start(b.window) >= start(a.window) && b.window.until <= a.window.until) return 'b_implies_a';
  return undefined;
}
