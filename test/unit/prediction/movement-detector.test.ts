/** The movement detector of D9: exact cases and properties over random walks. */
import fc from 'fast-check';
import type { ProbabilityObservation } from '../../../src/domain/prediction.js';
import { detectMovement, MovementDetector } from '../../../src/prediction/movement-detector.js';

const obs = (prob: number, observedAt: number, marketId = 'demo:m'): ProbabilityObservation => ({ marketId, prob, observedAt, volume24h: 1 });

describe('detectMovement', () => {
  it('takes the first observation as the baseline, without an alert', () => {
    expect(detectMovement(undefined, obs(0.4, 1))).toEqual({ baseline: { marketId: 'demo:m', pct: 40, observedAt: 1 } });
  });

  it('needs strictly more than 5.0 points', () => {
    const base = { marketId: 'demo:m', pct: 40, observedAt: 1 };
    expect(detectMovement(base, obs(0.45, 2)).movement).toBeUndefined();
    expect(detectMovement(base, obs(0.35, 2)).movement).toBeUndefined();
    expect(detectMovement(base, obs(0.4501, 2)).movement).toEqual({ marketId: 'demo:m', oldPct: 40, newPct: 45.01, deltaPts: 5, detectedAt: 2 });
    expect(detectMovement(base, obs(0.3372, 3)).movement).toMatchObject({ oldPct: 40, newPct: 33.72, deltaPts: -6.3 });
  });

  it('moves the baseline to the observation only on an alert', () => {
    const base = { marketId: 'demo:m', pct: 40, observedAt: 1 };
    expect(detectMovement(base, obs(0.44, 2)).baseline).toBe(base);
    expect(detectMovement(base, obs(0.47, 2)).baseline).toEqual({ marketId: 'demo:m', pct: 47, observedAt: 2 });
  });
});

describe('MovementDetector', () => {
  it('measures from the last alert, not from the previous observation (a slow drift alerts once it adds up)', () => {
    const d = new MovementDetector();
    const steps = [0.5, 0.52, 0.54, 0.56, 0.58, 0.6, 0.62].map((p, i) => obs(p, i + 1));
    const { movements } = d.observe(steps);
    expect(movements).toEqual([
      { marketId: 'demo:m', oldPct: 50, newPct: 56, deltaPts: 6, detectedAt: 4 },
      { marketId: 'demo:m', oldPct: 56, newPct: 62, deltaPts: 6, detectedAt: 7 },
    ]);
  });

  it('ignores observations not newer than the baseline (replays, late arrivals)', () => {
    const d = new MovementDetector([{ marketId: 'demo:m', pct: 50, observedAt: 100 }]);
    expect(d.observe([obs(0.9, 50), obs(0.9, 100)]).movements).toEqual([]);
    expect(d.observe([obs(0.9, 101)]).movements).toHaveLength(1);
    expect(d.observe([obs(0.9, 101)]).movements).toEqual([]);
  });

  it('keeps markets apart and reports the baselines that changed', () => {
    const d = new MovementDetector();
    const first = d.observe([obs(0.2, 1, 'a'), obs(0.8, 1, 'b')]);
    expect(first.changed.map((b) => b.marketId).sort()).toEqual(['a', 'b']);
    const second = d.observe([obs(0.3, 2, 'a'), obs(0.82, 2, 'b')]);
    expect(second.movements.map((m) => m.marketId)).toEqual(['a']);
    expect(second.changed).toEqual([{ marketId: 'a', pct: 30, observedAt: 2 }]);
  });

  const walk = fc.array(fc.integer({ min: 100, max: 9_900 }), { minLength: 1, maxLength: 200 });

  it('on any walk: every alert is more than 5 points, chains from the previous one, and matches a reference count', () => {
    fc.assert(
      fc.property(walk, (bps) => {
        const observations = bps.map((bp, i) => obs(bp / 10_000, i + 1));
        const { movements } = new MovementDetector().observe(observations);
        // Reference: the rule of D9 written out on integers.
        let baseline = bps[0]!;
        let expected = 0;
        for (const bp of bps.slice(1)) {
          if (Math.abs(bp - baseline) > 500) {
            expected++;
            baseline = bp;
          }
        }
        expect(movements).toHaveLength(expected);
        for (let i = 0; i < movements.length; i++) {
          const m = movements[i]!;
          expect(Math.abs(m.newPct - m.oldPct)).toBeGreaterThan(5);
          if (i > 0) expect(m.oldPct).toBe(movements[i - 1]!.newPct);
        }
      }),
    );
  });

  it('gives the same alerts however the stream is cut into batches', () => {
    fc.assert(
      fc.property(walk, fc.array(fc.nat(200), { maxLength: 10 }), (bps, cuts) => {
        const observations = bps.map((bp, i) => obs(bp / 10_000, i + 1));
        const whole = new MovementDetector().observe(observations).movements;
        const batched = new MovementDetector();
        const bounds = [...new Set([0, ...cuts.map((c) => c % (observations.length + 1)), observations.length])].sort((a, b) => a - b);
        const pieces = bounds.slice(1).flatMap((end, i) => batched.observe(observations.slice(bounds[i], end)).movements);
        expect(pieces).toEqual(whole);
      }),
    );
  });
});
