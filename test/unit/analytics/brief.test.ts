import fc from 'fast-check';
import { analyzeCandles, BRIEF_SIGNALS, MIN_CANDLES_FOR_FULL_BRIEF } from '../../../src/analytics/brief.js';
import { priceDecimals, roundTo } from '../../../src/analytics/round.js';
import type { BriefAnalysis, Candle, Indicators } from '../../../src/domain/market.js';

const HOUR = 3_600_000;

/** Candles from closes; open = previous close, high/low = close +/- 1 % unless given. */
function series(closes: readonly number[], volumes?: readonly number[]): Candle[] {
  return closes.map((close, i) => ({
    symbol: 'BTC/USD',
    interval: '1h',
    openTime: i * HOUR,
    open: closes[i - 1] ?? close,
    high: close * 1.01,
    low: close * 0.99,
    close,
    volume: volumes?.[i] ?? 100,
  }));
}

const range = (n: number, f: (i: number) => number): number[] => Array.from({ length: n }, (_, i) => f(i));
const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

function analyze(candles: Candle[]): BriefAnalysis {
  const result = analyzeCandles(candles);
  if (!result) throw new Error('expected a brief');
  return result;
}

const ALL_NULL: Indicators = {
  rsi14: null,
  sma20: null,
  sma50: null,
  ema12: null,
  ema26: null,
  macd: null,
  macdSignal: null,
  macdHistogram: null,
  bollingerUpper: null,
  bollingerMiddle: null,
  bollingerLower: null,
  atr14: null,
};

describe('analyzeCandles', () => {
  it('returns null without candles', () => {
    expect(analyzeCandles([])).toBeNull();
  });

  it('handles a single candle: no change, no indicators, neutral with zero confidence', () => {
    expect(analyze(series([42.5], [7]))).toEqual({
      trend: 'neutral',
      confidence: 0,
      price: 42.5,
      change: 0,
      volume: 7,
      signals: [],
      indicators: ALL_NULL,
    });
  });

  it('computes change against the previous close, to 2 decimals, and takes the last volume', () => {
    expect(analyze(series([100, 102.5], [1, 2]))).toMatchObject({ price: 102.5, change: 2.5, volume: 2 });
    expect(analyze(series([200, 190])).change).toBe(-5);
    expect(analyze(series([3, 1])).change).toBe(-66.67);
    expect(analyze(series([7, 7])).change).toBe(0);
    expect(analyze(series([0, 5])).change).toBe(0); // guarded: no percent from a zero price
  });

  it('keeps the last (partial) candle as the current one', () => {
    const candles = series(range(30, (i) => 100 + i));
    const partial = { ...candles[29]!, close: 150, volume: 3 };
    expect(analyze([...candles.slice(0, 29), partial])).toMatchObject({ price: 150, volume: 3, change: 17.19 }); // 128 -> 150
  });

  it('reports a steadily rising series as bullish with full confidence', () => {
    const brief = analyze(series(range(60, (i) => 100 + i)));
    expect(brief.trend).toBe('bullish');
    expect(brief.confidence).toBe(1);
    expect(brief.signals).toEqual(['rsi_overbought', 'above_sma50']);
    expect(brief.change).toBe(0.63); // 158 -> 159
    expect(brief.indicators).toMatchObject({ rsi14: 100, sma20: 149.5, sma50: 134.5, bollingerMiddle: 149.5 });
    const { ema12, ema26, macd, macdHistogram } = brief.indicators;
    expect(ema12!).toBeGreaterThan(ema26!);
    expect(macd!).toBeGreaterThan(0);
    expect(macdHistogram!).toBeGreaterThan(0);
  });

  it('reports a steadily falling series as bearish with full confidence', () => {
    const brief = analyze(series(range(60, (i) => 200 - i)));
    expect(brief.trend).toBe('bearish');
    expect(brief.confidence).toBe(1);
    expect(brief.signals).toEqual(['rsi_oversold', 'below_sma50']);
    expect(brief.indicators).toMatchObject({ rsi14: 0, sma20: 150.5, sma50: 165.5 });
  });

  it('reports a flat series as neutral, RSI 50, no signals', () => {
    const brief = analyze(series(range(60, () => 100)));
    expect(brief).toMatchObject({ trend: 'neutral', confidence: 0, change: 0, signals: [] });
    expect(brief.indicators).toEqual({
      rsi14: 50,
      sma20: 100,
      sma50: 100,
      ema12: 100,
      ema26: 100,
      macd: 0,
      macdSignal: 0,
      macdHistogram: 0,
      bollingerUpper: 100,
      bollingerMiddle: 100,
      bollingerLower: 100,
      atr14: 2, // high - low of every candle
    });
  });

  it('matches a hand computation of SMA(20), SMA(50) and the Bollinger middle', () => {
    const closes = range(70, (i) => 100 + ((i * 37) % 23) - 0.25 * i);
    const brief = analyze(series(closes));
    expect(brief.indicators.sma20).toBeCloseTo(mean(closes.slice(-20)), 9);
    expect(brief.indicators.sma50).toBeCloseTo(mean(closes.slice(-50)), 9);
    expect(brief.indicators.bollingerMiddle).toBe(brief.indicators.sma20);
    // Population standard deviation, 2 deviations wide.
    const m = mean(closes.slice(-20));
    const sd = Math.sqrt(mean(closes.slice(-20).map((c) => (c - m) ** 2)));
    expect(brief.indicators.bollingerUpper).toBeCloseTo(m + 2 * sd, 7);
    expect(brief.indicators.bollingerLower).toBeCloseTo(m - 2 * sd, 7);
  });

  it('keeps the precision of small prices (forex, micro-cap crypto)', () => {
    const fx = range(25, (i) => 1.08345 + (i % 5) * 0.00001);
    const fxBrief = analyze(series(fx));
    expect(fxBrief.price).toBe(fx[24]);
    expect(fxBrief.indicators.sma20).toBeCloseTo(mean(fx.slice(-20)), 9);

    const micro = range(25, (i) => 0.000012 + i * 0.0000001);
    const microBrief = analyze(series(micro));
    // Shown as a person writes it, not as the float sum came out (0.000014400000000000001).
    expect(micro[24]).not.toBe(0.0000144);
    expect(microBrief.price).toBe(0.0000144);
    expect(microBrief.indicators.sma20).toBeCloseTo(mean(micro.slice(-20)), 14);
    expect(microBrief.indicators.sma20).not.toBe(0);
    expect(microBrief.change).toBe(0.7); // 0.0000143 -> 0.0000144
  });

  it('returns null indicators while history is too short, but a valid brief', () => {
    const brief = analyze(
      series(
        range(10, (i) => 50 + i),
        range(10, (i) => i),
      ),
    );
    expect(brief.indicators).toEqual(ALL_NULL);
    expect(brief).toMatchObject({ price: 59, change: 1.72, volume: 9, signals: [], trend: 'neutral', confidence: 0 });
  });

  it('fills each indicator once the library reports it stable', () => {
    const at = (n: number): Indicators => analyze(series(range(n, (i) => 100 + Math.sin(i) * 5))).indicators;
    expect(at(13)).toMatchObject({ ema12: expect.any(Number), atr14: null, rsi14: null });
    expect(at(14)).toMatchObject({ atr14: expect.any(Number), rsi14: null });
    expect(at(15)).toMatchObject({ rsi14: expect.any(Number), sma20: null });
    expect(at(20)).toMatchObject({ sma20: expect.any(Number), bollingerUpper: expect.any(Number), ema26: null });
    expect(at(26)).toMatchObject({ ema26: expect.any(Number), macd: expect.any(Number), macdSignal: null });
    expect(at(33).macdHistogram).toBeNull();
    expect(at(34)).toMatchObject({ macdSignal: expect.any(Number), macdHistogram: expect.any(Number) });
  });

  it(`has every indicator from MIN_CANDLES_FOR_FULL_BRIEF (${MIN_CANDLES_FOR_FULL_BRIEF}) candles on`, () => {
    const values = (n: number) => Object.values(analyze(series(range(n, (i) => 100 + Math.sin(i) * 5))).indicators);
    expect(MIN_CANDLES_FOR_FULL_BRIEF).toBe(50);
    expect(values(MIN_CANDLES_FOR_FULL_BRIEF - 1)).toContain(null);
    expect(values(MIN_CANDLES_FOR_FULL_BRIEF)).not.toContain(null);
    expect(values(2 * MIN_CANDLES_FOR_FULL_BRIEF)).not.toContain(null);
  });

  it('fires crossings on the candle where a flat market breaks out', () => {
    const closes = [...range(60, () => 100), 120];
    expect(analyze(series(closes)).signals).toEqual(['rsi_overbought', 'macd_bullish_cross', 'golden_cross', 'above_sma50', 'bollinger_breakout_up']);
    const down = [...range(60, () => 100), 80];
    expect(analyze(series(down)).signals).toEqual(['rsi_oversold', 'macd_bearish_cross', 'death_cross', 'below_sma50', 'bollinger_breakout_down']);
    // One candle later the crossings are history; the state signals remain.
    expect(analyze(series([...closes, 121])).signals).not.toEqual(expect.arrayContaining(['macd_bullish_cross', 'golden_cross']));
  });

  it('fires golden_cross and death_cross exactly on the crossing candle of a V-shaped market', () => {
    const closes = [...range(80, (i) => 200 - i), ...range(80, (i) => 121 + 2 * i), ...range(80, (i) => 280 - 3 * i)];
    const briefs = closes.map((_, n) => analyze(series(closes.slice(0, n + 1))));
    const fired = (name: string) => briefs.flatMap((b, i) => (b.signals.includes(name) ? [i] : []));
    const golden = fired('golden_cross');
    const death = fired('death_cross');
    expect(golden).toHaveLength(1);
    expect(death).toHaveLength(1);
    const g = golden[0]!;
    expect(briefs[g - 1]!.indicators.sma20!).toBeLessThanOrEqual(briefs[g - 1]!.indicators.sma50!);
    expect(briefs[g]!.indicators.sma20!).toBeGreaterThan(briefs[g]!.indicators.sma50!);
    const d = death[0]!;
    expect(d).toBeGreaterThan(g);
    expect(briefs[d]!.indicators.sma20!).toBeLessThan(briefs[d]!.indicators.sma50!);
    // MACD crossings happen where the histogram changes sign, and only there.
    for (const [i, b] of briefs.entries()) {
      const prev = briefs[i - 1]?.indicators.macdHistogram ?? null;
      const hist = b.indicators.macdHistogram;
      const up = prev !== null && hist !== null && prev <= 0 && hist > 0;
      const down = prev !== null && hist !== null && prev >= 0 && hist < 0;
      expect(b.signals.includes('macd_bullish_cross')).toBe(up);
      expect(b.signals.includes('macd_bearish_cross')).toBe(down);
    }
    expect(fired('macd_bullish_cross').length).toBeGreaterThan(0);
    expect(fired('macd_bearish_cross').length).toBeGreaterThan(0);
  });

  it('fires volume_spike above twice the mean volume of the previous 20 candles', () => {
    const closes = range(21, () => 10);
    const volumes = (last: number) => [...range(20, (i) => (i % 2 === 0 ? 50 : 150)), last];
    expect(analyze(series(closes, volumes(201))).signals).toEqual(['volume_spike']);
    expect(analyze(series(closes, volumes(200))).signals).toEqual([]); // strictly above
    expect(analyze(series(closes.slice(1), volumes(1000).slice(1))).signals).toEqual([]); // needs 20 before
  });

  it('lowers confidence when fewer indicators are available', () => {
    // 26 rising candles: RSI, EMA12/26 and SMA20 vote (4 of 5), MACD histogram and SMA50 do not.
    const brief = analyze(series(range(26, (i) => 100 + i)));
    expect(brief.indicators.sma50).toBeNull();
    expect(brief.indicators.macdHistogram).toBeNull();
    expect(brief).toMatchObject({ trend: 'bullish', confidence: 0.4 });
    // 20 rising candles: only RSI votes -> not enough for a direction.
    expect(analyze(series(range(20, (i) => 100 + i)))).toMatchObject({ trend: 'neutral', confidence: 0.2 });
  });
});

describe('analyzeCandles properties', () => {
  const price = fc.oneof(
    fc.double({ min: 1e-6, max: 1e6, noNaN: true }),
    fc.constantFrom(1, 1.08345, 0.000012, 100), // repeated values exercise ties and flat stretches
  );
  const bar = fc.record({
    close: price,
    up: fc.double({ min: 0, max: 0.5, noNaN: true }),
    down: fc.double({ min: 0, max: 0.5, noNaN: true }),
    volume: fc.oneof(fc.double({ min: 0, max: 1e12, noNaN: true }), fc.constant(0)),
  });
  const candlesArb = fc.array(bar, { minLength: 1, maxLength: 300 }).map((bars) =>
    bars.map(
      (b, i): Candle => ({
        symbol: 'ETH/USD',
        interval: '5m',
        openTime: i * 300_000,
        open: bars[i - 1]?.close ?? b.close,
        high: b.close * (1 + b.up),
        low: b.close * (1 - b.down),
        close: b.close,
        volume: b.volume,
      }),
    ),
  );

  const numbers = (b: BriefAnalysis): number[] => [
    b.confidence,
    b.price,
    b.change,
    b.volume,
    ...Object.values(b.indicators).filter((v): v is number => v !== null),
  ];

  it('always yields a well-formed brief', () => {
    fc.assert(
      fc.property(candlesArb, (candles) => {
        const b = analyze(candles);
        expect(b.confidence).toBeGreaterThanOrEqual(0);
        expect(b.confidence).toBeLessThanOrEqual(1);
        for (const n of numbers(b)) expect(Number.isFinite(n)).toBe(true);
        expect(['bullish', 'bearish', 'neutral']).toContain(b.trend);
        // Subset of the vocabulary, in vocabulary order, without duplicates.
        expect(b.signals).toEqual(BRIEF_SIGNALS.filter((s) => b.signals.includes(s)));
        for (const [x, y] of [
          ['rsi_overbought', 'rsi_oversold'],
          ['above_sma50', 'below_sma50'],
          ['golden_cross', 'death_cross'],
          ['macd_bullish_cross', 'macd_bearish_cross'],
          ['bollinger_breakout_up', 'bollinger_breakout_down'],
        ] as const) {
          expect(b.signals.includes(x) && b.signals.includes(y)).toBe(false);
        }
        const last = candles[candles.length - 1]!;
        // The last close and volume, rounded once for people: prices to 10 significant digits, volumes to 8 decimals.
        expect(b.price).toBeCloseTo(last.close, Math.max(0, priceDecimals(last.close) - 1));
        expect(b.price).toBe(roundTo(b.price, priceDecimals(last.close)));
        expect(b.volume).toBe(roundTo(last.volume, 8));
        // Availability depends on the history length only.
        expect(b.indicators.sma20 === null).toBe(candles.length < 20);
        expect(b.indicators.sma50 === null).toBe(candles.length < MIN_CANDLES_FOR_FULL_BRIEF);
        expect(b.indicators.macdHistogram === null).toBe(candles.length < 34);
        expect(b.indicators.rsi14 === null).toBe(candles.length < 15);
      }),
      { numRuns: 150 },
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(candlesArb, (candles) => {
        expect(analyzeCandles(candles)).toEqual(analyzeCandles(candles.map((c) => ({ ...c }))));
      }),
      { numRuns: 30 },
    );
  });
});

it("a brief's volume is rounded for people: a float sum's noise is gone (751.6840999999998 -> 751.6841)", () => {
  const candles = series(
    range(3, (i) => 100 + i),
    range(3, () => 751.6840999999998),
  );
  expect(analyze(candles).volume).toBe(751.6841);
});
