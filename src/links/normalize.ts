/**
 * Text, number and time conventions the venues share: the extractors compare folded text, plain
 * numbers and epoch milliseconds, never the venues' spellings ("$82,400", "4AM ET", "Sep 12, 2026").
 */

/** Lower case, accents folded, typographic quotes and dashes made plain, spaces collapsed. */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[\u2018\u2019\u201b]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2013\u2014]/g, ' - ')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** Words of a folded text, punctuation dropped (`c.j.` stays one word `cj`). */
export function words(text: string): string[] {
  return fold(text)
    .replace(/(\w)\.(?=\w)/g, '$1')
    .split(/[^a-z0-9#+]+/)
    .filter(Boolean);
}

const MAGNITUDES: Record<string, number> = { k: 1e3, thousand: 1e3, m: 1e6, million: 1e6, b: 1e9, billion: 1e9, t: 1e12, trillion: 1e12 };

/** `82,400`, `$95K`, `1.5m` as a number; null when the text is not one. */
export function parseAmount(digits: string, magnitude?: string): number | null {
  const value = Number(digits.replace(/,/g, ''));
  if (!Number.isFinite(value)) return null;
  const factor = magnitude ? MAGNITUDES[magnitude.toLowerCase()] : 1;
  return factor === undefined ? null : Math.round(value * factor * 1e8) / 1e8;
}

export const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] as const;

/** Month number 1-12 from any English spelling or abbreviation (`Sept`, `Feburary` included); null otherwise. */
export function monthNumber(name: string): number | null {
  const key = fold(name).slice(0, 3);
  const index = MONTHS.indexOf(key as (typeof MONTHS)[number]);
  return index < 0 ? null : index + 1;
}

/** A regular expression fragment matching an English month name or abbreviation. */
export const MONTH_PATTERN =
  '(?:jan(?:uary)?|feb(?:ruary|urary|uary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';

export const NEW_YORK = 'America/New_York';

// Building an Intl formatter costs far more than using one: one per zone, kept.
const offsetFormatters = new Map<string, Intl.DateTimeFormat>();
const dateFormatters = new Map<string, Intl.DateTimeFormat>();

function offsetFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    offsetFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The zone's offset from UTC at an instant, in ms (New York: -4 h in summer, -5 h in winter). */
function zoneOffsetMs(instant: number, timeZone: string): number {
  const parts = offsetFormatter(timeZone).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** A wall-clock time in a zone as epoch ms; DST from Intl (a time in the spring gap moves forward). */
export function zonedTime(year: number, month: number, day: number, hour: number, minute: number, timeZone: string): number {
  const guess = Date.UTC(year, month - 1, day, hour, minute);
  if (timeZone === 'UTC') return guess;
  const first = guess - zoneOffsetMs(guess, timeZone);
  return guess - zoneOffsetMs(first, timeZone);
}

/** The calendar date of an instant in a zone, `YYYY-MM-DD`. */
export function zonedDate(instant: number, timeZone = NEW_YORK): string {
  let formatter = dateFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dateFormatters.set(timeZone, formatter);
  }
  return formatter.format(new Date(instant));
}

/** `YYYY-MM-DD` from numbers. */
export function isoDate(year: number, month: number, day: number): string {
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The zone a time's suffix names (`UTC`, `GMT`, `ET`, `EDT`, `EST`); New York where it names none. */
export function zoneOf(suffix: string | undefined): string {
  return suffix && /^(utc|gmt|z)$/i.test(suffix.trim()) ? 'UTC' : NEW_YORK;
}

/** `4pm`, `4:00 PM`, `12:15 a.m.`, `22:00`, `noon`, `midnight` as [hour, minute]; null otherwise. */
export function parseClock(text: string): [number, number] | null {
  const t = fold(text);
  if (t === 'noon') return [12, 0];
  if (t === 'midnight') return [0, 0];
  const match = /^(\d{1,2})(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?)?$/.exec(t);
  if (!match) return null;
  let hour = Number(match[1]);
  const minute = Number(match[2] ?? 0);
  const meridiem = match[3]?.[0];
  if (!meridiem && match[2] === undefined) return null;
  if (meridiem === 'p' && hour < 12) hour += 12;
  if (meridiem === 'a' && hour === 12) hour = 0;
  return hour < 24 && minute < 60 ? [hour, minute] : null;
}

const CLOCK = String.raw`(noon|midnight|\d{1,2}(?::\d{2})?\s*(?:a\.?m\.?|p\.?m\.?)|\d{1,2}:\d{2})`;
const ZONE = String.raw`(utc|gmt|et|edt|est)\b`;
/** `at 22:00 UTC`, `4AM ET`, `12:00 ET (noon)`: a clock time with a zone. */
export const CLOCK_WITH_ZONE = new RegExp(String.raw`${CLOCK}\s*(?:in the\s+)?${ZONE}`, 'i');

const NAMED_DATE = new RegExp(String.raw`\b(${MONTH_PATTERN})\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s*(20\d{2}))?`, 'i');
const DAY_FIRST_DATE = new RegExp(String.raw`\b(\d{1,2})(?:st|nd|rd|th)?\s+(${MONTH_PATTERN})\.?,?\s*(20\d{2})?\b`, 'i');

export interface DateParts {
  year: number | null;
  month: number;
  day: number;
}

/** The first `May 12`, `January 28, 2026`, `12 May 2026` or `2026-05-12` in a text. */
export function findDate(text: string): (DateParts & { index: number; length: number }) | null {
  const t = fold(text);
  const iso = /\b(20\d{2})-(\d{2})-(\d{2})\b/.exec(t);
  const named = NAMED_DATE.exec(t);
  const dayFirst = DAY_FIRST_DATE.exec(t);
  const found: Array<DateParts & { index: number; length: number }> = [];
  if (iso) found.push({ year: Number(iso[1]), month: Number(iso[2]), day: Number(iso[3]), index: iso.index, length: iso[0].length });
  if (named) {
    const month = monthNumber(named[1]!);
    if (month) found.push({ year: named[3] ? Number(named[3]) : null, month, day: Number(named[2]), index: named.index, length: named[0].length });
  }
  if (dayFirst) {
    const month = monthNumber(dayFirst[2]!);
    if (month)
      found.push({ year: dayFirst[3] ? Number(dayFirst[3]) : null, month, day: Number(dayFirst[1]), index: dayFirst.index, length: dayFirst[0].length });
  }
  found.sort((x, y) => x.index - y.index);
  const first = found[0];
  return first && first.day >= 1 && first.day <= 31 ? first : null;
}

/** A year-less date's year: the reference instant's year (the market's close), or the date's own. */
export function yearFor(parts: DateParts, reference: number | null): number | null {
  if (parts.year !== null) return parts.year;
  return reference === null ? null : Number(zonedDate(reference).slice(0, 4));
}

/** Close times as the venues print them (`2026-05-10T17:01:08Z`, `2026-05-10 18:54:53+00`) as epoch ms. */
export function parseTimestamp(text: string): number | null {
  const trimmed = text.trim();
  const match = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i.exec(trimmed);
  if (!match) return null;
  let zone = match[3] ?? 'Z';
  if (/^[+-]\d{2}$/.test(zone)) zone = `${zone}:00`;
  else if (/^[+-]\d{4}$/.test(zone)) zone = `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const ms = Date.parse(`${match[1]}T${match[2] ?? '00:00:00'}${zone.toUpperCase()}`);
  return Number.isNaN(ms) ? null : ms;
}

/** An instant as ISO 8601 UTC without milliseconds (`2026-01-28T22:00:00Z`). */
export function isoInstant(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
