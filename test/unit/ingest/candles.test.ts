/** Window alignment and trade folding shared by all feeds. */
import fc from 'fast-check';
import { INTERVAL_MS, INTERVALS, type Candle, type Interval } from '../../../src/domain/market.js';
import { alignOpenTime, applyTrade } from '../../../src/ingest/candles.js';

const T = Date.UTC(2026, 10, 15, 13, 47, 12, 345); // 2026-11-15 13:47:12.345 UTC

describe('alignOpenTime', () => {
  it('floors to the UTC window start of each interval', () => {
    expect(alignOpenTime(T, '5m')).toBe(Date.UTC(2026, 10, 15, 13, 45));
    expect(alignOpenTime(T, '15m')).toBe(Date.UTC(2026, 10, 15, 13, 45));
    expect(alignOpenTime(T, '1h')).toBe(Date.UTC(2026, 10, 15, 13));
    expect(alignOpenTime(T, '4h')).toBe(Date.UTC(2026, 10, 15, 12));
    expect(alignOpenTime(T, '1d')).toBe(Date.UTC(2026, 10, 15));
  });

  it('keeps a time that is already on a boundary, and floors times before the epoch', () => {
    const midnight = Date.UTC(2026, 10, 16);
    for (const i of INTERVALS) expect(alignOpenTime(midnight, i)).toBe(midnight);
    expect(alignOpenTime(midnight - 1, '1d')).toBe(Date.UTC(2026, 10, 15));
    expect(alignOpenTime(-1, '1h')).toBe(-INTERVAL_MS['1h']);
  });
});

describe('applyTrade', () => {
  const base: Candle = {
    symbol: 'BTC/USD',
    interval: '1h',
    openTime: Date.UTC(2026, 10, 15, 13),
    open: 100,
    high: 105,
    low: 95,
    close: 101,
    volume: 2,
  };

  it('opens a candle when there is none', () => {
    expect(applyTrade(undefined, 'BTC/USD', '1h', T, 100.5, 3)).toEqual({
      symbol: 'BTC/USD',
      interval: '1h',
      openTime: Date.UTC(2026, 10, 15, 13),
      open: 100.5,
      high: 100.5,
      low: 100.5,
      close: 100.5,
      volume: 3,
    });
  });

  it('updates high/low/close and adds volume within the same window, without mutating the input', () => {
    const frozen = Object.freeze({ ...base });
    expect(applyTrade(frozen, 'BTC/USD', '1h', T, 107, 1.5)).toEqual({ ...base, high: 107, close: 107, volume: 3.5 });
    expect(applyTrade(frozen, 'BTC/USD', '1h', T, 90, 0)).toEqual({ ...base, low: 90, close: 90, volume: 2 });
    expect(applyTrade(frozen, 'BTC/USD', '1h', T, 99, 1)).toEqual({ ...base, close: 99, volume: 3 });
    expect(frozen).toEqual(base);
  });

  it('starts a new candle at the trade price in a later window', () => {
    const t = Date.UTC(2026, 10, 15, 15, 0, 0, 1);
    expect(applyTrade(base, 'BTC/USD', '1h', t, 110, 4)).toEqual({
      ...base,
      openTime: Date.UTC(2026, 10, 15, 15),
      open: 110,
      high: 110,
      low: 110,
      close: 110,
      volume: 4,
    });
  });

  it('rolls a 1d candle over exactly at 00:00 UTC', () => {
    const lastMs = Date.UTC(2026, 10, 15, 23, 59, 59, 999);
    const day = applyTrade(undefined, 'EUR/USD', '1d', Date.UTC(2026, 10, 15, 0, 0, 0), 1.1, 1);
    const late = applyTrade(day, 'EUR/USD', '1d', lastMs, 1.2, 1);
    expect(late).toMatchObject({ openTime: Date.UTC(2026, 10, 15), open: 1.1, high: 1.2, close: 1.2, volume: 2 });
    const next = applyTrade(late, 'EUR/USD', '1d', lastMs + 1, 1.15, 5);
    expect(next).toEqual({
      symbol: 'EUR/USD',
      interval: '1d',
      openTime: Date.UTC(2026, 10, 16),
      open: 1.15,
      high: 1.15,
      low: 1.15,
      close: 1.15,
      volume: 5,
    });
  });

  it('ignores a late trade for an earlier window', () => {
    expect(applyTrade(base, 'BTC/USD', '1h', base.openTime - 1, 1, 100)).toEqual(base);
  });

  it('rejects bad input and a candle of another series', () => {
    expect(() => applyTrade(base, 'ETH/USD', '1h', T, 1, 1)).toThrow();
    expect(() => applyTrade(base, 'BTC/USD', '5m', T, 1, 1)).toThrow();
    expect(() => applyTrade(base, 'BTC/USD', '1h', T, 0, 1)).toThrow(RangeError);
    expect(() => applyTrade(base, 'BTC/USD', '1h', T, Number.NaN, 1)).toThrow(RangeError);
    expect(() => applyTrade(base, 'BTC/USD', '1h', T, 1, -1)).toThrow(RangeError);
  });

  it('matches a group-by-window model for any ordered trade sequence (property)', () => {
    const trade = fc.record({
      dt: fc.integer({ min: 0, max: 3 * 60 * 60_000 }),
      price: fc.double({ min: 0.0001, max: 1e6, noNaN: true }),
      volume: fc.double({ min: 0, max: 1e4, noNaN: true }),
    });
    fc.assert(
      fc.property(
        fc.constantFrom<Interval>(...INTERVALS),
        fc.integer({ min: 0, max: 2_000_000_000_000 }),
        fc.array(trade, { minLength: 1, maxLength: 60 }),
        (interval, start, trades) => {
          let t = start;
          let candle: Candle | undefined;
          const emitted: Candle[] = [];
          const timed = trades.map((x) => {
            t += x.dt;
            return { ...x, t };
          });
          for (const x of timed) {
            const next = applyTrade(candle, 'X/USD', interval, x.t, x.price, x.volume);
            if (candle !== undefined && next.openTime !== candle.openTime) emitted.push(candle);
            candle = next;
          }
          emitted.push(candle!);

          // Reference: trades grouped by their aligned window, in order.
          const groups = new Map<number, typeof timed>();
          for (const x of timed) {
            const key = Math.floor(x.t / INTERVAL_MS[interval]) * INTERVAL_MS[interval];
            groups.set(key, [...(groups.get(key) ?? []), x]);
          }
          expect(emitted.map((c) => c.openTime)).toEqual([...groups.keys()]);
          for (const c of emitted) {
            const g = groups.get(c.openTime)!;
            expect(c.openTime % INTERVAL_MS[interval]).toBe(0);
            expect(c.open).toBe(g[0]!.price);
            expect(c.close).toBe(g[g.length - 1]!.price);
            expect(c.high).toBe(Math.max(...g.map((x) => x.price)));
            expect(c.low).toBe(Math.min(...g.map((x) => x.price)));
            // Same additions in the same order, so the sums agree exactly.
            expect(c.volume).toBe(g.reduce((s, x) => s + x.volume, 0));
            expect(c.high).toBeGreaterThanOrEqual(Math.max(c.open, c.close));
            expect(c.low).toBeLessThanOrEqual(Math.min(c.open, c.close));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
