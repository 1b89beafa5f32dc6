/**
 * A market read once: each structure the judge may need (a price, a temperature, a person's result,
 * a fixture, a statement), parsed on first use and kept with the market object, so judging one
 * market against fifty candidates reads its texts once. A market object whose texts changed since is
 * read again (the key is its texts, not only its identity).
 */
import type { MarketText } from '../domain/links.js';
import { type Fixture, parseFixture } from './fixture.js';
import { type PersonResult, parsePersonResult } from './finish.js';
import { type PriceProposition, priceProposition } from './price-judge.js';
import { parseStatement, type Statement } from './statement.js';
import { parseTemperature, type Temperature } from './weather.js';

export interface Reading {
  readonly price: PriceProposition | null;
  readonly temperature: Temperature | null;
  readonly person: PersonResult | null;
  readonly fixture: Fixture | null;
  readonly statement: Statement;
}

interface Kept {
  key: string;
  reading: Reading;
}

const kept = new WeakMap<MarketText, Kept>();

const textKey = (m: MarketText) =>
  JSON.stringify([m.venue, m.id, m.question, m.rules, m.closeTime, m.expiryTime ?? null, m.yesSide ?? null, m.strike ?? null, m.resolutionSource ?? null]);

export function readMarket(m: MarketText): Reading {
  const key = textKey(m);
  const hit = kept.get(m);
  if (hit && hit.key === key) return hit.reading;
  const reading = lazyReading(m);
  kept.set(m, { key, reading });
  return reading;
}

function lazyReading(m: MarketText): Reading {
  const once = <T>(read: () => T) => {
    let done = false;
    let value: T;
    return () => {
      if (!done) {
        value = read();
        done = true;
      }
      return value;
    };
  };
  const price = once(() => priceProposition(m));
  const temperature = once(() => parseTemperature(m));
  const person = once(() => parsePersonResult(m));
  const fixture = once(() => parseFixture(m));
  const statement = once(() => parseStatement(m));
  return {
    get price() {
      return price();
    },
    get temperature() {
      return temperature();
    },
    get person() {
      return person();
    },
    get fixture() {
      return fixture();
    },
    get statement() {
      return statement();
    },
  };
}
