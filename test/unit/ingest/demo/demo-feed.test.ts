/** The offline demo feed: catalogue, seeded backfill, live ticks. */
import { INTERVAL_MS, INTERVALS, MARKET_TYPES, type Candle, type Quote } from '../../../../src/domain/market.js';
import { alignOpenTime } from '../../../../src/ingest/candles.js';
import { DEMO_MARKETS, demoMarketMetas } from '../../../../src/ingest/demo/catalogue.js';
import { createDemoFeed, HALTED_AGO_MS, type FeedBatch } from '../../../../src/ingest/demo/feed.js';

const NOW = Date.UTC(2026, 10, 15, 13, 47, 12, 345);
const SEED = 42;
const HOUR = INTERVAL_MS['1h'];

const active = DEMO_MARKETS.filter((m) => !m.halted);
const halted = DEMO_MARKETS.filter((m) => m.halted);

/** Candles grouped by `symbol interval`, in output order. */
function bySeries(candles: readonly Candle[]): Map<string, Candle[]> {
  const out = new Map<string, Candle[]>();
  for (const c of candles) {
    const key = `${c.symbol} ${c.interval}`;
    const list = out.get(key);
    if (list === undefined) out.set(key, [c]);
    else list.push(c);
  }
  return out;
}

/** The OHLC rules a candle breaks, by name; checked in plain code because there are ~20 000 of them. */
function candleProblems(c: Candle): string[] {
  const broken: string[] = [];
  if (![c.open, c.high, c.low, c.close, c.volume].every(Number.isFinite)) broken.push('not finite');
  if (!(c.high >= Math.max(c.open, c.close))) broken.push('high < max(open, close)');
  if (!(c.low <= Math.min(c.open, c.close))) broken.push('low > min(open, close)');
  if (!(c.low > 0)) broken.push('low <= 0');
  if (!(c.volume >= 0)) broken.push('volume < 0');
  if (c.openTime % INTERVAL_MS[c.interval] !== 0) broken.push('openTime not aligned');
  return broken;
}

function expectValidCandles(candles: readonly Candle[]): void {
  const bad = candles.flatMap((c) => candleProblems(c).map((p) => `${c.symbol} ${c.interval} ${c.openTime}: ${p}`));
  expect(bad).toEqual([]);
}

function quoteOf(batch: FeedBatch, symbol: string): Quote {
  const q = batch.quotes.find((x) => x.symbol === symbol);
  if (q === undefined) throw new Error(`no quote for ${symbol}`);
  return q;
}

describe('demo catalogue', () => {
  it('has at least 30 markets of all three types, unique well-formed symbols', () => {
    expect(DEMO_MARKETS.length).toBeGreaterThanOrEqual(30);
    for (const type of MARKET_TYPES) {
      expect(DEMO_MARKETS.filter((m) => m.type === type).length).toBeGreaterThanOrEqual(10);
    }
    const symbols = DEMO_MARKETS.map((m) => m.symbol);
    expect(new Set(symbols).size).toBe(symbols.length);
    for (const s of symbols) expect(s).toMatch(/^[A-Z0-9]+\/[A-Z]+$/);
  });

  it('has plausible generation parameters per type', () => {
    const range = { crypto: [0.5, 1.0], forex: [0.05, 0.12], stocks: [0.2, 0.6] } as const;
    for (const m of DEMO_MARKETS) {
      const [lo, hi] = range[m.type];
      expect(m.volatility).toBeGreaterThanOrEqual(lo);
      expect(m.volatility).toBeLessThanOrEqual(hi);
      expect(m.price).toBeGreaterThan(0);
      expect(m.dailyVolume).toBeGreaterThan(0);
      expect(m.staleAfterMs).toBeGreaterThan(0);
      expect(m.name.length).toBeGreaterThan(0);
    }
  });

  it('marks at least two markets halted, and declares MarketMeta with source demo', () => {
    expect(halted.length).toBeGreaterThanOrEqual(2);
    const metas = demoMarketMetas();
    expect(metas).toHaveLength(DEMO_MARKETS.length);
    for (const [i, meta] of metas.entries()) {
      const m = DEMO_MARKETS[i]!;
      expect(meta).toEqual({
        symbol: m.symbol,
        name: m.name,
        type: m.type,
        source: 'demo',
        staleAfterMs: m.staleAfterMs,
        halted: m.halted,
      });
    }
    expect(createDemoFeed({ seed: SEED, now: NOW }).markets()).toEqual(metas);
  });
});

describe('demo backfill', () => {
  const t0 = performance.now();
  const batch = createDemoFeed({ seed: SEED, now: NOW }).backfill();
  const elapsed = performance.now() - t0;
  const series = bySeries(batch.candles);

  it('a second backfill, warm, of another seed: as many candles and quotes, other prices (its timing printed, not asserted)', () => {
    // First call includes JIT warm-up; a second one shows the steady state.
    const t1 = performance.now();
    const second = createDemoFeed({ seed: SEED + 1, now: NOW }).backfill();
    expect(batch.candles.length).toBeGreaterThan(DEMO_MARKETS.length * INTERVALS.length);
    expect([second.candles.length, second.quotes.length]).toEqual([batch.candles.length, batch.quotes.length]);
    expect(second.quotes.map((q) => q.price)).not.toEqual(batch.quotes.map((q) => q.price));
    console.log(
      `demo backfill: ${batch.candles.length} candles, ${batch.quotes.length} quotes in ` +
        `${elapsed.toFixed(1)} ms (first), ${(performance.now() - t1).toFixed(1)} ms (second)`,
    );
  });

  it('gives one quote per market', () => {
    expect(batch.quotes.map((q) => q.symbol)).toEqual(DEMO_MARKETS.map((m) => m.symbol));
  });

  it('keeps the OHLC invariants on every candle, in contiguous aligned series', () => {
    expectValidCandles(batch.candles);
    const gaps: string[] = [];
    for (const [key, list] of series) {
      const ms = INTERVAL_MS[list[0]!.interval];
      for (let i = 1; i < list.length; i++) {
        if (list[i]!.openTime - list[i - 1]!.openTime !== ms) gaps.push(`${key} at ${list[i]!.openTime}`);
      }
    }
    expect(gaps).toEqual([]);
  });

  it('gives every active market >= 100 candles per interval ending at now, closing at the quote price', () => {
    for (const m of active) {
      const q = quoteOf(batch, m.symbol);
      expect(q.observedAt).toBe(NOW);
      for (const interval of INTERVALS) {
        const list = series.get(`${m.symbol} ${interval}`) ?? [];
        expect(list.length).toBeGreaterThanOrEqual(100);
        const last = list[list.length - 1]!;
        expect(last.openTime).toBeLessThanOrEqual(NOW);
        expect(NOW).toBeLessThan(last.openTime + INTERVAL_MS[interval]);
        expect(last.close).toBe(q.price);
      }
    }
  });

  it('makes halted markets look inactive: an old quote and a short history ending then', () => {
    for (const m of halted) {
      const q = quoteOf(batch, m.symbol);
      expect(q.observedAt).toBe(NOW - HALTED_AGO_MS);
      expect(NOW - q.observedAt).toBeGreaterThan(m.staleAfterMs);
      for (const interval of INTERVALS) {
        const list = series.get(`${m.symbol} ${interval}`) ?? [];
        expect(list.length).toBeGreaterThan(0);
        expect(list.length).toBeLessThan(100);
        const last = list[list.length - 1]!;
        expect(last.openTime).toBe(alignOpenTime(q.observedAt, interval));
        expect(last.close).toBe(q.price);
      }
    }
  });

  it('derives change24h and volume24h from the 1h series', () => {
    for (const m of active) {
      const q = quoteOf(batch, m.symbol);
      const hourly = series.get(`${m.symbol} 1h`)!;
      const ref = hourly[hourly.length - 25]!; // the bar 24 h before the current one
      expect(ref.openTime).toBe(alignOpenTime(NOW, '1h') - 24 * HOUR);
      expect(q.change24h).toBeCloseTo((q.price / ref.open - 1) * 100, 3);
      const volume = hourly.slice(-24).reduce((s, c) => s + c.volume, 0);
      expect(q.volume24h).toBeCloseTo(volume, 3);
      expect(q.volume24h).toBeGreaterThan(0);
    }
  });

  it('scales volume to the interval around the typical daily volume', () => {
    for (const m of active) {
      const daily = series.get(`${m.symbol} 1d`)!.slice(0, -1); // the last one is partial
      const mean = daily.reduce((s, c) => s + c.volume, 0) / daily.length;
      expect(mean / m.dailyVolume).toBeGreaterThan(0.7);
      expect(mean / m.dailyVolume).toBeLessThan(1.4);
    }
  });

  it('has trending markets both ways, not only neutral walks', () => {
    // Size of the 1h move over the history in standard deviations of a driftless walk.
    const z = active.map((m) => {
      const list = series.get(`${m.symbol} 1h`)!;
      const sigma = m.volatility * Math.sqrt((list.length * HOUR) / (365.25 * 24 * HOUR));
      return Math.log(list[list.length - 1]!.close / list[0]!.open) / sigma;
    });
    expect(z.filter((x) => x > 1.5).length).toBeGreaterThanOrEqual(2);
    expect(z.filter((x) => x < -1.5).length).toBeGreaterThanOrEqual(2);
  });

  it('is deterministic: same seed gives byte-identical output, another seed other prices', () => {
    const again = createDemoFeed({ seed: SEED, now: NOW }).backfill();
    expect(JSON.stringify(again)).toBe(JSON.stringify(batch));
    const other = createDemoFeed({ seed: SEED + 1, now: NOW }).backfill();
    for (const m of DEMO_MARKETS) expect(quoteOf(other, m.symbol).price).not.toBe(quoteOf(batch, m.symbol).price);
  });

  it('honours historyLength', () => {
    const short = createDemoFeed({ seed: SEED, now: NOW, historyLength: 30 }).backfill();
    for (const [key, list] of bySeries(short.candles)) {
      expect(list.length).toBe(key.startsWith('FTT/') || key.startsWith('SIVB/') ? 24 : 30);
    }
    expect(() => createDemoFeed({ seed: SEED, now: NOW, historyLength: 0 })).toThrow(RangeError);
  });
});

describe('demo tick', () => {
  // 47-second steps for ~80 minutes: crosses 5m, 15m and the 14:00 hour boundary.
  const times = Array.from({ length: 100 }, (_, k) => NOW + (k + 1) * 47_000);

  function run(seed: number, withBackfill: boolean): { start: FeedBatch; ticks: FeedBatch[] } {
    const feed = createDemoFeed({ seed, now: NOW });
    const start = withBackfill ? feed.backfill() : { quotes: [], candles: [] };
    return { start, ticks: times.map((t) => feed.tick(t)) };
  }

  it('moves prices and keeps every current candle consistent', () => {
    const { start, ticks } = run(SEED, true);
    const current = new Map<string, Candle>();
    for (const [key, list] of bySeries(start.candles)) current.set(key, list[list.length - 1]!);

    const bad: string[] = [];
    for (const [k, batch] of ticks.entries()) {
      const t = times[k]!;
      expect(batch.quotes.map((q) => q.symbol)).toEqual(active.map((m) => m.symbol));
      expect(batch.candles).toHaveLength(active.length * INTERVALS.length);
      expectValidCandles(batch.candles);
      for (const c of batch.candles) {
        const q = quoteOf(batch, c.symbol);
        const key = `${c.symbol} ${c.interval}`;
        const prev = current.get(key)!;
        const where = `tick ${k} ${key}`;
        if (q.observedAt !== t) bad.push(`${where}: observedAt ${q.observedAt}`);
        if (c.close !== q.price) bad.push(`${where}: close ${c.close} != price ${q.price}`);
        if (c.openTime !== alignOpenTime(t, c.interval)) bad.push(`${where}: window ${c.openTime}`);
        if (c.openTime === prev.openTime) {
          // Same window: the bar only widens and accumulates.
          if (c.open !== prev.open) bad.push(`${where}: open changed`);
          if (c.high < prev.high || c.low > prev.low) bad.push(`${where}: range shrank`);
          if (c.volume < prev.volume) bad.push(`${where}: volume fell`);
        } else if (!(c.openTime > prev.openTime && c.open === c.close)) {
          bad.push(`${where}: bad rollover`);
        }
        current.set(key, c);
      }
    }
    expect(bad).toEqual([]);
    // The run ends at 15:05:32 UTC, so the hourly bar rolled over twice and is now the 15:00 one.
    for (const m of active) {
      expect(current.get(`${m.symbol} 1h`)!.openTime).toBe(Date.UTC(2026, 10, 15, 15));
    }

    const moved = (batch: FeedBatch) => batch.quotes.filter((q) => q.price !== quoteOf(start, q.symbol).price).length;
    expect(moved(ticks[0]!)).toBeGreaterThan(active.length / 2);
    expect(moved(ticks[ticks.length - 1]!)).toBe(active.length);
  });

  it('keeps change24h and volume24h rolling with the hourly candles', () => {
    const { ticks } = run(SEED, true);
    for (const q of ticks[ticks.length - 1]!.quotes) {
      expect(Number.isFinite(q.change24h)).toBe(true);
      expect(q.volume24h).toBeGreaterThan(0);
    }
  });

  it('is deterministic for a seed and a sequence of times, with or without a backfill first', () => {
    const a = run(SEED, true);
    const b = run(SEED, false);
    expect(JSON.stringify(b.ticks)).toBe(JSON.stringify(a.ticks));
    const c = run(SEED + 1, true);
    expect(JSON.stringify(c.ticks)).not.toBe(JSON.stringify(a.ticks));
  });

  it('never runs time backwards and leaves the backfill snapshot unchanged', () => {
    const feed = createDemoFeed({ seed: SEED, now: NOW });
    const before = JSON.stringify(feed.backfill());
    feed.tick(NOW + 60_000);
    const back = feed.tick(NOW);
    for (const q of back.quotes) expect(q.observedAt).toBe(NOW + 60_000);
    expect(JSON.stringify(feed.backfill())).toBe(before);
  });
});

describe('withoutSymbols', () => {
  it('leaves the excluded symbols out of the markets, the backfill and every tick', async () => {
    const { withoutSymbols } = await import('../../../../src/ingest/demo/without-symbols.js');
    const excluded = new Set(['BTC/USD', 'EUR/USD']);
    const feed = withoutSymbols(createDemoFeed({ seed: SEED, now: NOW, historyLength: 3 }), excluded);
    const symbols = (list: { symbol: string }[]) => new Set(list.map((x) => x.symbol));
    const backfill = feed.backfill();
    const tick = feed.tick(NOW + 60_000);
    for (const set of [symbols(feed.markets()), symbols(backfill.quotes), symbols(backfill.candles), symbols(tick.quotes), symbols(tick.candles)]) {
      expect(set.has('BTC/USD') || set.has('EUR/USD')).toBe(false);
      expect(set.has('ETH/USD')).toBe(true);
    }
  });
});
