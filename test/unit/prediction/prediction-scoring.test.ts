/** The signal of a prediction market (src/prediction/scoring.ts): exact cases and properties. */
import fc from 'fast-check';
import { deltaPoints, percentOf, roundProb, wholePercentOf } from '../../../src/prediction/percent.js';
import { SIGNAL_STRENGTH, scoreMarkets, signalFor, volumePercentiles } from '../../../src/prediction/scoring.js';

describe('signalFor', () => {
  it.each([
    [0.9, 6, 'hot'],
    [0.9, -5, 'hot'],
    [0.8, 5, 'hot'],
    [0.79, 5, 'rising'],
    [0.9, 4.9, 'rising'],
    [0.1, 3, 'rising'],
    [0.9, 0, 'watch'],
    [0.9, -4.9, 'watch'],
    [0.1, -3, 'watch'],
    [0.1, -2.9, 'wait'],
    [0.5, 2.9, 'wait'],
    [0.79, null, 'wait'],
    [0.95, null, 'watch'],
  ] as const)('percentile %p, move %p -> %s', (percentile, move, expected) => {
    expect(signalFor(percentile, move)).toBe(expected);
  });

  const percentile = fc.double({ min: 0, max: 1, noNaN: true });
  const move = fc.double({ min: -100, max: 100, noNaN: true });

  it('never weakens when the market gets busier', () => {
    fc.assert(
      fc.property(percentile, percentile, move, (p1, p2, m) => {
        const [lo, hi] = p1 <= p2 ? [p1, p2] : [p2, p1];
        expect(SIGNAL_STRENGTH[signalFor(hi, m)]).toBeGreaterThanOrEqual(SIGNAL_STRENGTH[signalFor(lo, m)]);
      }),
    );
  });

  it('never weakens when the move grows in the same direction', () => {
    fc.assert(
      fc.property(percentile, move, fc.double({ min: 0, max: 50, noNaN: true }), (p, m, extra) => {
        const further = m >= 0 ? m + extra : m - extra;
        expect(SIGNAL_STRENGTH[signalFor(p, further)]).toBeGreaterThanOrEqual(SIGNAL_STRENGTH[signalFor(p, m)]);
      }),
    );
  });

  it('is hot only when busy and moving 5 points or more, rising only when up 3 or more', () => {
    fc.assert(
      fc.property(percentile, move, (p, m) => {
        const signal = signalFor(p, m);
        if (signal === 'hot') expect(p >= 0.8 && Math.abs(m) >= 5).toBe(true);
        if (signal === 'rising') expect(m).toBeGreaterThanOrEqual(3);
        if (signal === 'wait') expect(p < 0.8 && Math.abs(m) < 3).toBe(true);
      }),
    );
  });
});

describe('volumePercentiles', () => {
  it('ranks by the share of the others strictly below; ties share a rank', () => {
    expect(volumePercentiles([10, 30, 20, 30, 0])).toEqual([0.25, 0.75, 0.5, 0.75, 0]);
    expect(volumePercentiles([5])).toEqual([1]);
    expect(volumePercentiles([])).toEqual([]);
  });

  it('keeps the order of the volumes, within 0..1', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(1e9), { minLength: 2, maxLength: 200 }), (volumes) => {
        const p = volumePercentiles(volumes);
        for (let i = 0; i < volumes.length; i++) {
          expect(p[i]).toBeGreaterThanOrEqual(0);
          expect(p[i]).toBeLessThanOrEqual(1);
          for (let j = 0; j < volumes.length; j++) {
            if (volumes[i]! > volumes[j]!) expect(p[i]!).toBeGreaterThan(p[j]!);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('scoreMarkets', () => {
  it('scores the top fifth by volume as busy', () => {
    const markets = Array.from({ length: 10 }, (_, i) => ({ volume24h: (i + 1) * 1000, move24hPts: 0 }));
    expect(scoreMarkets(markets)).toEqual(['wait', 'wait', 'wait', 'wait', 'wait', 'wait', 'wait', 'wait', 'watch', 'watch']);
    markets[9]!.move24hPts = -7;
    markets[0]!.move24hPts = 8;
    expect(scoreMarkets(markets)[9]).toBe('hot');
    expect(scoreMarkets(markets)[0]).toBe('rising');
  });
});

describe('probability arithmetic (D7)', () => {
  it('rounds on basis points, halves up, without binary-fraction slips', () => {
    expect(wholePercentOf(0.285)).toBe(29);
    expect(wholePercentOf(0.575)).toBe(58);
    expect(wholePercentOf(0.0049)).toBe(0);
    expect(wholePercentOf(0.005)).toBe(1);
    expect(roundProb(0.123456)).toBe(0.1235);
    expect(percentOf(0.6234)).toBe(62.34);
    expect(deltaPoints(45.2, 51.3)).toBe(6.1);
    expect(deltaPoints(51.3, 45.2)).toBe(-6.1);
    expect(deltaPoints(40, 46.05)).toBe(6.1);
    expect(deltaPoints(46.05, 40)).toBe(-6.1);
    expect(deltaPoints(40, 40)).toBe(0);
    expect(Object.is(deltaPoints(40, 40.04), 0)).toBe(true);
  });

  it('prob_pct is round(prob * 100) of the 4-decimal probability; delta_pts is symmetric', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 10_000 }), (bp1, bp2) => {
        const prob = bp1 / 10_000;
        // Exact decimal rounding: basis points / 100, halves up.
        expect(wholePercentOf(prob)).toBe(Math.floor((bp1 + 50) / 100));
        const d = deltaPoints(percentOf(bp1 / 10_000), percentOf(bp2 / 10_000));
        expect(deltaPoints(percentOf(bp2 / 10_000), percentOf(bp1 / 10_000))).toBe(d === 0 ? 0 : -d);
        expect(Math.abs(d - (bp2 - bp1) / 100)).toBeLessThanOrEqual(0.05 + 1e-9);
      }),
    );
  });
});
