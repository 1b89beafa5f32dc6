/** Properties of the judge over the dev set's real markets (skipped where ../shared is absent) and generated prices. */
import fc from 'fast-check';
import type { MarketText } from '../../../src/domain/links.js';
import { blockingKeys } from '../../../src/links/blocking.js';
import { priceClaim } from '../../../src/links/claims.js';
import { judgePair } from '../../../src/links/judge.js';
import { devMarkets, withDevSet } from './dev-set.js';

const swapped = { a_implies_b: 'b_implies_a', b_implies_a: 'a_implies_b' } as const;

describe('judgePair properties', () => {
  withDevSet('b against a is a against b with the sides swapped, for any two dev-set markets', () => {
    const markets = devMarkets();
    fc.assert(
      fc.property(fc.constantFrom(...markets), fc.constantFrom(...markets), (a, b) => {
        const ab = judgePair(a, b);
        const ba = judgePair(b, a);
        expect(ba.relation).toBe(ab.relation);
        expect(ba.implies).toBe(ab.implies ? swapped[ab.implies] : undefined);
        expect(ba.evidence).toEqual(ab.evidence.map((e) => ({ ...e, a: e.b, b: e.a })));
      }),
      { numRuns: 300 },
    );
  });

  withDevSet('a market against itself is same, or unresolved when its texts cannot settle (titles alone, a station not named), never anything else', () => {
    const markets = devMarkets();
    for (const m of markets) {
      const twin: MarketText = { ...m };
      const v = judgePair(m, twin);
      expect(['same', 'unresolved']).toContain(v.relation);
      if (/^(KXBTCD|KXETHD|KXMLBGAME|KXWNBAGAME|KXPGATOP)/.test(m.id)) expect(v.relation).toBe('same');
    }
  });

  it('never throws on arbitrary texts, and answers one of the five relations; blocking keys and claims neither', () => {
    const words = fc.constantFrom(
      'vs',
      'Bitcoin',
      'above',
      '$82,400',
      'on',
      'May 12,',
      '4AM ET',
      'wins',
      'If',
      'then the market resolves to Yes.',
      'Map 2',
      'draw',
      'Top 10',
      '—',
      'scheduled for',
      'Sep 14, 2026',
      '·',
      '[outcome: A]',
      'temperature',
      '°',
    );
    const text = fc.oneof(
      fc.string(),
      fc.array(words, { maxLength: 12 }).map((w) => w.join(' ')),
    );
    const market = fc.record({
      venue: fc.constantFrom('kalshi', 'polymarket', 'polymarket_us', 'manifold'),
      id: fc.oneof(fc.string(), fc.constantFrom('KXMLBGAME-26SEP142140MIAAZ-MIA', 'KXBTCD-26MAY1204-T82399.99', 'aec-mlb-mia-az-2026-09-14')),
      question: text,
      rules: text,
      closeTime: fc.option(fc.integer({ min: 0, max: 4_102_444_800_000 }), { nil: null }),
      yesSide: fc.option(text, { nil: undefined }),
    });
    fc.assert(
      fc.property(market, market, (a, b) => {
        const relation = judgePair(a, b).relation;
        expect(['same', 'inverse', 'related', 'different', 'unresolved']).toContain(relation);
        expect(judgePair(b, a).relation).toBe(relation);
        expect(Array.isArray(blockingKeys(a))).toBe(true);
        priceClaim(a, () => null);
      }),
      { numRuns: 500 },
    );
  });

  it('two generated hourly price markets: same only at one instant and one threshold; related with the higher "above" implying the lower', () => {
    const hours = fc.integer({ min: 1, max: 11 });
    const thresholds = fc.integer({ min: 600, max: 1200 }).map((x) => x * 100);
    fc.assert(
      fc.property(hours, thresholds, hours, thresholds, (ha, ta, hb, tb) => {
        const market = (id: string, hour: number, threshold: number): MarketText => ({
          venue: 'polymarket',
          id,
          question: `Bitcoin above ${threshold.toLocaleString('en-US')} on May 12, ${hour}AM ET?`,
          rules: '',
          closeTime: Date.parse('2026-05-12T16:00:00Z'),
        });
        const v = judgePair(market('a', ha, ta), market('b', hb, tb));
        if (ha !== hb) expect(v.relation).toBe('related');
        else if (ta === tb) expect(v.relation).toBe('same');
        else expect(v).toMatchObject({ relation: 'related', implies: ta > tb ? 'a_implies_b' : 'b_implies_a' });
      }),
    );
  });
});
