/** links:eval's scoring, and the judge over ../shared/links/pairs-dev.jsonl: no same or inverse that the (overruled) labels contradict. */
import type { MarketText } from '../../../src/domain/links.js';
import { evaluate, falseSettling } from '../../../src/links/evaluate.js';
import { devPairs, overrules, withDevSet } from './dev-set.js';

const market = (venue: string, id: string, question: string, close: string): MarketText => ({ venue, id, question, rules: '', closeTime: Date.parse(close) });

describe('evaluate', () => {
  const basketball = {
    a: market('kalshi', 'KXBBSERIEAGAME-26MAY101100VARVIB-VAR', 'Pallacanestro Varese vs Virtus Bologna', '2026-05-10T17:01:08Z'),
    b: market('polymarket', '2163277', 'Virtus Bologna vs. Pallacanestro Varese', '2026-05-10T18:54:53Z'),
  };
  it('counts an inverse verdict on a pair labelled different as a false settling verdict, until the label is overruled', () => {
    const pairs = [{ line: 1, ...basketball, label: 'different' as const }];
    const plain = evaluate(pairs);
    expect(plain).toMatchObject({ settling: 1, settlingRight: 0, precision: 0, recall: null });
    expect(falseSettling(plain)).toHaveLength(1);
    const overruled = evaluate(pairs, [{ a: basketball.a.id, b: basketball.b.id, was: 'different', label: 'same_inverted', why: 'opposite teams' }]);
    expect(overruled).toMatchObject({ settling: 1, settlingRight: 1, precision: 1, overrulesApplied: 1, disagreements: [] });
    expect(overruled.byLabel).toEqual({ same_inverted: { inverse: 1 } });
  });

  withDevSet('pairs-dev: no same or inverse verdict that the labels, with the documented overrules, contradict; recall of same at least 0.9', () => {
    const report = evaluate(devPairs(), overrules());
    expect(falseSettling(report)).toEqual([]);
    expect(report.overrulesApplied).toBe(overrules().length);
    expect(report.recall).toBeGreaterThanOrEqual(0.9);
  });
});
