/**
 * The judge: what two markets are to each other, from their texts alone. Each kind of market has its
 * own structure and comparison (prices, temperatures, a person's result, fixtures); any other pair is
 * compared by the YES conditions its rules state. A pair of different kinds is never `same`. The
 * verdict does not depend on which market is `a`: b-to-a is a-to-b with the sides swapped.
 */
import type { LinkVerdict, MarketText } from '../domain/links.js';
import { swapImplication, VerdictBuilder } from './evidence.js';
import { judgeFixtures } from './fixture-judge.js';
import { judgePersonResults } from './finish.js';
import { fold } from './normalize.js';
import { judgePrices } from './price-judge.js';
import { readMarket } from './reading.js';
import { judgeStatements } from './statement.js';
import { judgeTemperatures } from './weather.js';

export function judgePair(a: MarketText, b: MarketText): LinkVerdict {
  return inOrder(a, b) ? judgeOrdered(a, b) : swapSides(judgeOrdered(b, a));
}

const key = (m: MarketText) => `${m.venue}\u0000${m.id}\u0000${m.question}\u0000${m.rules}`;
const inOrder = (a: MarketText, b: MarketText) => key(a) <= key(b);

function swapSides(verdict: LinkVerdict): LinkVerdict {
  const swapped: LinkVerdict = { ...verdict, evidence: verdict.evidence.map((e) => ({ ...e, a: e.b, b: e.a })) };
  const implies = swapImplication(verdict.implies);
  if (implies) swapped.implies = implies;
  else delete swapped.implies;
  return swapped;
}

type Kind = 'price' | 'temperature' | 'person result' | 'fixture' | 'statement';

function judgeOrdered(a: MarketText, b: MarketText): LinkVerdict {
  const [ma, mb] = [readMarket(a), readMarket(b)];
  const [pa, pb] = [ma.price, mb.price];
  if (pa && pb) return judgePrices(a, pa, b, pb);
  const [ta, tb] = [ma.temperature, mb.temperature];
  if (ta && tb) return judgeTemperatures(ta, tb);
  const [ra, rb] = [ma.person, mb.person];
  if (ra && rb) return judgePersonResults(a, ra, b, rb);
  const [fa, fb] = [ma.fixture, mb.fixture];
  if (fa && fb) return judgeFixtures(a, fa, b, fb);
  const kindA: Kind = pa ? 'price' : ta ? 'temperature' : ra ? 'person result' : fa ? 'fixture' : 'statement';
  const kindB: Kind = pb ? 'price' : tb ? 'temperature' : rb ? 'person result' : fb ? 'fixture' : 'statement';
  if (kindA !== kindB && kindA !== 'statement' && kindB !== 'statement') return kindsDiffer(a, b, kindA, kindB);
  const verdict = judgeStatements(a, ma.statement, b, mb.statement);
  // A statement read against a structured market can relate to it, never settle with it.
  if (kindA !== kindB && (verdict.relation === 'same' || verdict.relation === 'inverse'))
    return {
      ...verdict,
      relation: 'unresolved',
      basisRisk: [],
      missing: [`one market is a ${kindA === 'statement' ? kindB : kindA} market the other's text does not read as`],
    };
  return verdict;
}

/** Two different kinds of proposition: related when they share a name, else different. */
function kindsDiffer(a: MarketText, b: MarketText, kindA: Kind, kindB: Kind): LinkVerdict {
  const v = new VerdictBuilder();
  const [wa, wb] = [
    new Set(
      fold(a.question)
        .split(/[^a-z0-9]+/)
        .filter((w) => w.length > 3),
    ),
    new Set(
      fold(b.question)
        .split(/[^a-z0-9]+/)
        .filter((w) => w.length > 3),
    ),
  ];
  const shared = [...wa].filter((w) => wb.has(w));
  v.compare('subject', a.question, b.question, shared.length > 0 ? null : false);
  v.compare('proposition', kindA, kindB, false);
  v.compare('mechanism', kindA, kindB, false);
  return v.verdict(shared.length > 0 ? 'related' : 'different');
}
