/**
 * Temperature markets: the day's high or low in a city, on a date, against a bin or a threshold, read
 * at one weather station. Two stations in one city are two contracts; a station a text does not name
 * leaves the pair unresolved.
 */
import type { LinkVerdict, MarketText } from '../domain/links.js';
import { VerdictBuilder } from './evidence.js';
import { findDate, fold, isoDate, yearFor } from './normalize.js';
import { settlementSource } from './rules-text.js';

export interface Temperature {
  statistic: 'high' | 'low';
  city: string;
  date: string | null;
  low: number;
  high: number;
  station: string | null;
  /** Who publishes the reading (the National Weather Service's climatological report, Weather Underground). */
  source: string | null;
}

export function parseTemperature(m: MarketText): Temperature | null {
  const q = fold(m.question);
  const stat = /\b(highest|lowest|high|low|max(?:imum)?|min(?:imum)?) temperature\b/.exec(q);
  if (!stat) return null;
  const statistic = /^(highest|high|max)/.test(stat[1]!) ? 'high' : 'low';
  const named = /temperature in ([a-z .'-]+?)(?: be\b| on\b| for\b|\?|$)/.exec(q)?.[1]?.trim();
  if (!named) return null;
  const city = CITY_NAMES[named] ?? named;
  const date = findDate(q);
  const year = date ? yearFor(date, m.closeTime) : null;
  const range = bin(q, m);
  if (!range) return null;
  return {
    statistic,
    city,
    date: date && year ? isoDate(year, date.month, date.day) : null,
    low: range[0],
    high: range[1],
    station: station(m.rules),
    source: settlementSource(m.rules, m.resolutionSource),
  };
}

/** One city under the names the venues' titles give it ("NYC" on Kalshi, "New York City" on Polymarket). */
const CITY_NAMES: Readonly<Record<string, string>> = {
  nyc: 'new york city',
  'new york': 'new york city',
  la: 'los angeles',
  dc: 'washington dc',
  'washington, dc': 'washington dc',
  'washington d.c.': 'washington dc',
  sf: 'san francisco',
};

/** The bin as whole degrees, inclusive: "88° to 89°", "between 88-89°f", "43°f or below", Kalshi's floor/cap. */
function bin(q: string, m: MarketText): [number, number] | null {
  const strike = m.strike;
  if (strike?.type === 'between' && typeof strike.floor === 'number' && typeof strike.cap === 'number') return [strike.floor, strike.cap];
  if (strike?.type === 'greater' && typeof strike.floor === 'number') return [Math.floor(strike.floor) + 1, Number.POSITIVE_INFINITY];
  if (strike?.type === 'less' && typeof strike.cap === 'number') return [Number.NEGATIVE_INFINITY, Math.ceil(strike.cap) - 1];
  const between = /(-?\d+)\s*°?\s*f?\s*(?:to|-)\s*(-?\d+)\s*°/.exec(q) ?? /between (-?\d+)\s*-\s*(-?\d+)/.exec(q);
  if (between) return [Number(between[1]), Number(between[2])];
  const below = /(-?\d+)\s*°\s*f?\s*or (?:below|lower|less)/.exec(q);
  if (below) return [Number.NEGATIVE_INFINITY, Number(below[1])];
  const above = /(-?\d+)\s*°\s*f?\s*or (?:above|higher|more)/.exec(q);
  if (above) return [Number(above[1]), Number.POSITIVE_INFINITY];
  return null;
}

/** The station the rules name: an airport, a park, a station code. */
function station(rules: string): string | null {
  const text = fold(rules);
  const named = /\b([a-z .'-]{3,40}?(?:international airport|intl airport|airport|central park|observatory))\b/.exec(text)?.[1];
  if (named)
    return named
      .replace(/\bintl\b/, 'international')
      .replace(/^.*\b(?:at|the|for|of|in)\s+/, '')
      .trim();
  const code = /\bstation (?:id )?([a-z]{4})\b/.exec(text)?.[1];
  return code ? code.toUpperCase() : null;
}

const range = (t: Temperature) => `${t.low === Number.NEGATIVE_INFINITY ? '' : t.low}..${t.high === Number.POSITIVE_INFINITY ? '' : t.high}`;

export function judgeTemperatures(a: Temperature, b: Temperature): LinkVerdict {
  const v = new VerdictBuilder();
  const subject = v.compare('subject', a.city, b.city);
  v.compare('proposition', `${a.statistic} temperature`, `${b.statistic} temperature`);
  const threshold = v.compare('threshold', range(a), range(b));
  const window = v.compare('window', a.date, b.date);
  v.compare('stage', null, null);
  v.compare('yes_side', 'yes', 'yes');
  const stationAgrees = v.compare('settlement_source', a.station, b.station);
  v.compare('mechanism', 'daily temperature', 'daily temperature');
  if (!subject || a.statistic !== b.statistic) return v.verdict('different');
  if (window === false) return v.verdict('related');
  if (!threshold) {
    const implies = a.low >= b.low && a.high <= b.high ? 'a_implies_b' : b.low >= a.low && b.high <= a.high ? 'b_implies_a' : undefined;
    return v.verdict('related', implies);
  }
  if (window === null) return v.lack('the date of the reading on one venue').verdict('unresolved');
  if (stationAgrees === false) return v.verdict('related');
  if (stationAgrees === null) return v.lack('the weather station each venue reads (one city has several)').verdict('unresolved');
  // The climatological report's day runs midnight to midnight local standard time (1 am to 1 am in summer).
  if (a.source !== b.source && a.source && b.source)
    v.risk(`source: ${a.source} against ${b.source}; the NWS climatological day is in local standard time, and a late correction can differ`);
  return v.verdict('same');
}
