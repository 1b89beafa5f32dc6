/**
 * The daily stock-bar connector (Stooq's CSV download) against the spec: the real Yahoo daily
 * recordings in ../shared field by field (skipped with a message where absent), and small
 * hand-made CSVs (everywhere) for Stooq's plain-text failures, bad rows, header changes, backfill
 * depth, the request cap and the observedAt clamp.
 */
import type { Candle, Quote } from '../../src/domain/market.js';
import { createStocksConnector } from '../../src/upstream/connectors/stocks.js';
import { pollConnector } from '../support/connectors.js';
import { ownFixture, recordedFixture, sharedFixture, withShared } from '../support/upstream-fixtures.js';
import type { UpstreamReply, UpstreamRoute } from '../support/upstream-server.js';

const DAY_MS = 86_400_000;
const LATER = Date.UTC(2026, 11, 1, 12); // after every fixture's last bar

const TICKERS: [string, string][] = [
  ['AAPL', 'Apple Inc.'],
  ['MSFT', 'Microsoft Corporation'],
  ['NVDA', 'NVIDIA Corporation'],
  ['TSLA', 'Tesla, Inc.'],
  ['AMZN', 'Amazon.com, Inc.'],
  ['GOOGL', 'Alphabet Inc.'],
  ['META', 'Meta Platforms, Inc.'],
];
const RECORDED = ['AAPL', 'MSFT', 'NVDA', 'TSLA'];

/** Prices lose the recordings' float32 noise: 4 decimals. */
const price4 = (n: number): number => Math.round(n * 10_000) / 10_000;
/** change24h: percent, unrounded (the API rounds what it shows, once). */
const pct = (from: number, to: number): number => ((to - from) / from) * 100;
const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const of = <T extends { symbol: string }>(items: T[], symbol: string): T[] => items.filter((i) => i.symbol === symbol);

/** Stooq's daily download for one ticker. */
const route = (ticker: string, reply: UpstreamReply | ((url: URL, count: number) => UpstreamReply)): UpstreamRoute => ({
  path: '/q/d/l/',
  query: { s: `${ticker.toLowerCase()}.us`, i: 'd' },
  reply,
});
const csv = (body: Buffer | string): UpstreamReply => ({ body, contentType: 'text/csv' });
const text = (body: Buffer | string): UpstreamReply => ({ body, contentType: 'text/plain' });

/** The test's own reading of a daily CSV row into the candle the spec asks for. */
function expectedCandle(symbol: string, line: string): Candle {
  const [date, open, high, low, close, volume] = line.split(',');
  return {
    symbol,
    interval: '1d',
    openTime: Date.parse(`${date}T00:00:00Z`),
    open: price4(Number(open)),
    high: price4(Number(high)),
    low: price4(Number(low)),
    close: price4(Number(close)),
    volume: Math.round(Number(volume)),
  };
}

describe('stocks connector', () => {
  it('declares itself as the spec says', () => {
    const connector = createStocksConnector();
    expect({ source: connector.source, kind: connector.kind, pollMs: connector.pollMs, defaultBaseUrl: connector.defaultBaseUrl }).toEqual({
      source: 'stocks',
      kind: 'market-data',
      pollMs: 3_600_000,
      defaultBaseUrl: 'https://stooq.com',
    });
    expect(connector.symbols).toEqual(TICKERS.map(([t]) => `${t}/USD`));
  });

  // This repository's excerpts (the newest 300 rows, what a backfill keeps) everywhere, the whole recordings where ../shared exists.
  describe.each([
    { recording: 'excerpts of the', test: it, read: (t: string) => recordedFixture(`stocks/yahoo_daily_${t}_excerpt_2022-10-20_to_2023-12-29.csv`) },
    { recording: 'the whole', test: withShared, read: (t: string) => sharedFixture(`stocks/yahoo_daily_${t}_2013-01-02_to_2023-12-29.csv`) },
  ])('on $recording real daily recordings', ({ test, read }) => {
    const recordings = new Map(RECORDED.map((t) => [t, () => read(t)]));
    const routes = (): UpstreamRoute[] =>
      TICKERS.map(([t]) => {
        const load = recordings.get(t);
        // The recordings cover four of the seven: Stooq answers the others as it does an unknown ticker.
        return route(t, load ? csv(load()) : text('No data'));
      });

    test('maps each recorded ticker field by field; the unrecorded ones count as problems', async () => {
      const { batch, requests } = await pollConnector(createStocksConnector(), routes(), { now: LATER, backfill: true });

      expect(requests.map((r) => `${r.pathname}${r.search}`).sort()).toEqual(TICKERS.map(([t]) => `/q/d/l/?s=${t.toLowerCase()}.us&i=d`).sort());
      expect(batch.markets).toEqual(
        TICKERS.map(([t, name]) => ({ symbol: `${t}/USD`, name, type: 'stocks', source: 'stocks', staleAfterMs: 4 * DAY_MS, halted: false })),
      );
      expect(batch.problems.invalid).toBe(3);
      expect(batch.problems.examples.map((e) => e.split(':')[0]).sort()).toEqual(['AMZN', 'GOOGL', 'META']);
      expect(batch.quotes.map((q) => q.symbol).sort()).toEqual(RECORDED.map((t) => `${t}/USD`).sort());

      for (const ticker of RECORDED) {
        const symbol = `${ticker}/USD`;
        const lines = recordings.get(ticker)!().toString('utf8').trim().split(/\r?\n/);
        expect(lines[0]).toBe('Date,Open,High,Low,Close,Volume');
        const last = expectedCandle(symbol, lines.at(-1)!);
        const previous = expectedCandle(symbol, lines.at(-2)!);
        expect(isoDay(last.openTime)).toBe('2023-12-29');
        expect(of(batch.quotes, symbol)).toEqual<Quote[]>([
          {
            symbol,
            price: last.close,
            change24h: pct(previous.close, last.close),
            volume24h: last.volume,
            observedAt: Date.parse('2023-12-29T21:00:00Z'),
          },
        ]);
        // The last 300 rows, oldest first, noise rounded away, whole volumes.
        expect(of(batch.candles, symbol)).toEqual(lines.slice(-300).map((l) => expectedCandle(symbol, l)));
      }
      // A spot check of the rounding on the raw text: AAPL's last close is 192.52999877929688 in the file.
      expect(of(batch.quotes, 'AAPL/USD')[0]!.price).toBe(192.53);
    });

    test('sends only the last 5 bars per ticker once backfilled', async () => {
      const { batch } = await pollConnector(createStocksConnector(), routes(), { now: LATER, backfill: false });
      for (const ticker of RECORDED) {
        const lines = recordings.get(ticker)!().toString('utf8').trim().split(/\r?\n/);
        expect(of(batch.candles, `${ticker}/USD`)).toEqual(lines.slice(-5).map((l) => expectedCandle(`${ticker}/USD`, l)));
      }
      expect(batch.candles).toHaveLength(5 * RECORDED.length);
    });
  });

  describe('on small hand-made CSVs', () => {
    const msft = ownFixture('stocks/msft_small.csv');

    it('reads prices to 4 decimals (float32 noise off), rounds volumes, and skips and counts bad rows', async () => {
      const { batch } = await pollConnector(createStocksConnector(['MSFT']), [route('MSFT', csv(msft))], { now: LATER, backfill: true });
      expect(batch.problems.invalid).toBe(2); // the bar without a close, the bar dated 2026/11/19
      expect(batch.problems.examples).toEqual([expect.stringMatching(/MSFT line 5/), expect.stringMatching(/MSFT line 7/)]);
      const candles = batch.candles;
      expect(candles.map((c) => isoDay(c.openTime))).toEqual([
        '2026-11-12',
        '2026-11-13',
        '2026-11-16',
        '2026-11-18',
        '2026-11-19',
        '2026-11-20',
        '2026-11-23',
      ]);
      expect(candles[0]).toEqual({
        symbol: 'MSFT/USD',
        interval: '1d',
        openTime: Date.UTC(2026, 10, 12),
        open: 410.1,
        high: 412.5,
        low: 408,
        close: 411.3,
        volume: 21_000_000,
      });
      expect(candles[1]).toMatchObject({ open: 411.3, volume: 19_500_000 });
      expect(candles.at(-2)).toMatchObject({ high: 419, close: 418.1, volume: 23_456_789 });
      // The change is computed from the closes as read (418.1 -> 419.5), unrounded: the API rounds it once.
      expect(batch.quotes).toEqual([
        { symbol: 'MSFT/USD', price: 419.5, change24h: pct(418.1, 419.5), volume24h: 24_000_000, observedAt: Date.parse('2026-11-23T21:00:00Z') },
      ]);
    });

    it('stamps the close at 21:00 UTC, but never later than now', async () => {
      const now = Date.parse('2026-11-23T18:30:00Z');
      const { batch } = await pollConnector(createStocksConnector(['MSFT']), [route('MSFT', csv(msft))], { now, backfill: false });
      expect(batch.quotes[0]!.observedAt).toBe(now);
    });

    it('sends the last 5 bars after the backfill, and at most 300 on it', async () => {
      const dates: string[] = [];
      for (let t = Date.UTC(2026, 10, 20); dates.length < 320; t -= DAY_MS) {
        const weekday = new Date(t).getUTCDay();
        if (weekday !== 0 && weekday !== 6) dates.unshift(isoDay(t));
      }
      const body = ['Date,Open,High,Low,Close,Volume', ...dates.map((d, i) => `${d},${100 + i},${101 + i},${99 + i},${100.5 + i},${1000 + i}`)].join('\n');
      const connector = createStocksConnector(['AAPL']);
      const full = await pollConnector(connector, [route('AAPL', csv(body))], { now: LATER, backfill: true });
      expect(full.batch.candles).toHaveLength(300);
      expect(isoDay(full.batch.candles[0]!.openTime)).toBe(dates[20]);
      expect(full.batch.candles.at(-1)).toMatchObject({ openTime: Date.UTC(2026, 10, 20), close: 419.5, volume: 1319 });
      const recent = await pollConnector(connector, [route('AAPL', csv(body))], { now: LATER, backfill: false });
      expect(recent.batch.candles.map((c) => isoDay(c.openTime))).toEqual(dates.slice(-5));
      expect(recent.batch.quotes).toEqual(full.batch.quotes);

      const small = await pollConnector(createStocksConnector(['MSFT']), [route('MSFT', csv(msft))], { now: LATER, backfill: false });
      expect(small.batch.candles.map((c) => isoDay(c.openTime))).toEqual(['2026-11-16', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-23']);
    });

    it("keeps the tickers that answered when one has 'No data' and another hit the daily limit", async () => {
      const { batch } = await pollConnector(
        createStocksConnector(['AAPL', 'MSFT', 'NVDA']),
        [
          route('AAPL', csv(ownFixture('stocks/aapl_small.csv'))),
          route('MSFT', text(ownFixture('stocks/no_data.txt'))),
          route('NVDA', text(ownFixture('stocks/hits_limit.txt'))),
        ],
        { now: LATER, backfill: true },
      );
      expect(batch.quotes.map((q) => q.symbol)).toEqual(['AAPL/USD']);
      expect(new Set(batch.candles.map((c) => c.symbol))).toEqual(new Set(['AAPL/USD']));
      expect(batch.markets.map((m) => m.symbol)).toEqual(['AAPL/USD', 'MSFT/USD', 'NVDA/USD']);
      // Two failed tickers and AAPL's bar without a low.
      expect(batch.problems.invalid).toBe(3);
      const examples = batch.problems.examples.join('\n');
      expect(examples).toMatch(/^MSFT: .*no CSV/m);
      expect(examples).toMatch(/^NVDA: .*hits limit/m);
    });

    it.each<[string, UpstreamReply, string]>([
      ["'No data'", text(ownFixture('stocks/no_data.txt')), 'parse'],
      ['the daily hits limit', text(ownFixture('stocks/hits_limit.txt')), 'rate_limited'],
      ['an HTML page', { body: '<html><body>Service temporarily unavailable</body></html>', contentType: 'text/html' }, 'parse'],
      ['an empty body', text(''), 'parse'],
      ["Yahoo's columns (with Adj Close)", csv(ownFixture('stocks/yahoo_adj_close.csv')), 'schema'],
      ['HTTP 503', { status: 503, body: 'busy' }, 'http'],
    ])('fails the poll when the only ticker answers %s', async (_what, reply, failure) => {
      await expect(pollConnector(createStocksConnector(['AAPL']), [route('AAPL', reply)], { now: LATER })).rejects.toMatchObject({
        name: 'UpstreamError',
        source: 'stocks',
        failure,
      });
    });

    it('rethrows the first ticker’s error when every ticker failed', async () => {
      const limit = text(ownFixture('stocks/hits_limit.txt'));
      const none = text(ownFixture('stocks/no_data.txt'));
      await expect(pollConnector(createStocksConnector(['AAPL', 'MSFT']), [route('AAPL', limit), route('MSFT', none)], { now: LATER })).rejects.toMatchObject({
        failure: 'rate_limited',
        message: expect.stringMatching(/AAPL/),
      });
      await expect(pollConnector(createStocksConnector(['MSFT', 'AAPL']), [route('AAPL', limit), route('MSFT', none)], { now: LATER })).rejects.toMatchObject({
        failure: 'parse',
        message: expect.stringMatching(/MSFT/),
      });
    });

    it('has at most 3 requests in flight', async () => {
      let inFlight = 0;
      let peak = 0;
      const slow = (): UpstreamReply => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        // Registered before the server's own timer of the same delay: counts down just before the answer leaves.
        setTimeout(() => inFlight--, 60);
        return { body: msft, contentType: 'text/csv', delayMs: 60 };
      };
      const { batch, requests } = await pollConnector(
        createStocksConnector(),
        TICKERS.map(([t]) => route(t, slow)),
        { now: LATER, backfill: false },
      );
      expect(requests).toHaveLength(7);
      expect(peak).toBe(3);
      expect(batch.quotes).toHaveLength(7);
    });
  });
});

describe('strict cells', () => {
  it('counts impossible dates, empty cells and non-decimal numbers instead of reading them as something else', async () => {
    const body = [
      'Date,Open,High,Low,Close,Volume',
      '2026-11-27,10,11,9,10.5,1000',
      '2026-11-31,10,11,9,10.5,1000', // no such day (would roll over to 12-01)
      '2026-11-30,10,11,9,10.5,', // empty volume (Number('') is 0)
      '2026-11-29,0x10,11,9,10.5,1000', // hex (Number('0x10') is 16)
      '2026-11-28,10,11,9,10.5,1e3',
    ].join('\n');
    const { batch } = await pollConnector(createStocksConnector(['AAPL']), [route('AAPL', csv(body))], { now: LATER });
    expect(batch.candles.map((c) => [isoDay(c.openTime), c.volume])).toEqual([
      ['2026-11-27', 1000],
      ['2026-11-28', 1000],
    ]);
    expect(batch.problems.invalid).toBe(3);
  });
});
