/**
 * Blocking keys: two markets that could be `same`, `inverse` or `related` share at least one key, and
 * a market has few, so 10 000 + 10 000 markets give a bounded number of candidate pairs, never all
 * pairs. Keys join what the judge compares first: a team's distinctive word with the fixture's day,
 * an asset with the day its price is read, a city with the day of the reading, a person's surname,
 * the names a condition mentions.
 */
import type { MarketText } from '../domain/links.js';
import { words, zonedDate } from './normalize.js';
import { readMarket } from './reading.js';
import { parseStatement } from './statement.js';
import { sharedWords, teamWords } from './teams.js';

const DAY = 86_400_000;

export function blockingKeys(m: MarketText): string[] {
  const keys = new Set<string>();
  const reading = readMarket(m);
  const fixture = reading.fixture;
  if (fixture) {
    const days = fixture.date ? [fixture.date] : closeDays(m);
    const exclude = sharedWords(fixture.teams);
    for (const team of fixture.teams) for (const word of [...teamWords(team, exclude)].slice(0, 3)) for (const day of days) keys.add(`team:${word}:${day}`);
    if (fixture.codes) for (const day of days) keys.add(`codes:${[...fixture.codes].sort().join('+')}:${day}`);
  }
  const price = reading.price;
  if (price) {
    const instant = price.claim ? price.claim.until : m.closeTime;
    if (instant !== null) for (const day of [zonedDate(instant), zonedDate(instant - DAY)]) keys.add(`asset:${price.asset}:${day}`);
    if (price.claim?.kind === 'touch') keys.add(`asset:${price.asset}:touch`);
  }
  const temperature = reading.temperature;
  if (temperature) keys.add(`weather:${temperature.city}:${temperature.date ?? 'undated'}`);
  const person = reading.person;
  if (person) keys.add(`person:${words(person.person).at(-1)}`);
  if (!fixture && !price && !temperature && !person) for (const key of nameKeys(m)) keys.add(key);
  return [...keys];
}

/** A fixture without a stated date: its close's New York day and the day before (venues close hours after the game). */
function closeDays(m: MarketText): string[] {
  return m.closeTime === null ? ['undated'] : [zonedDate(m.closeTime), zonedDate(m.closeTime - DAY)];
}

/** Each name a condition mentions, and each pair of its first three (a common name alone gets crowded out). */
function nameKeys(m: MarketText): string[] {
  const names = [...new Set([...readMarket(m).statement.names, ...parseStatement({ ...m, rules: '' }).names])].slice(0, 4);
  const keys = names.map((name) => `name:${name}`);
  for (let i = 0; i < Math.min(names.length, 3); i += 1)
    for (let j = i + 1; j < Math.min(names.length, 3); j += 1) keys.push(`names:${[names[i], names[j]].sort().join('+')}`);
  return keys;
}
