/**
 * The Binance spot connector against the spec: the real 24hr tickers and 1h klines in ../shared
 * field by field (skipped with a message where absent), and small hand-made answers (everywhere)
 * for bad items, a changed envelope, failed kline requests, backfill depth and the request cap.
 */
import type { Candle, Quote } from '../../src/domain/market.js';
import { INTERVALS } from '../../src/domain/market.js';
import { createBinanceConnector } from '../../src/upstream/connectors/binance.js';
import { UpstreamError } from '../../src/upstream/errors.js';
import { pollConnector } from '../support/connectors.js';
import { ownFixture, recordedFixture, sharedFixture, withShared } from '../support/upstream-fixtures.js';
import type { UpstreamReply, UpstreamRoute } from '../support/upstream-server.js';

const NOW = Date.UTC(2026, 10, 23, 6, 0);

const PAIRS: [string, string, string][] = [
  ['BTCUSDT', 'BTC/USDT', 'Bitcoin / Tether'],
  ['ETHUSDT', 'ETH/USDT', 'Ether / Tether'],
  ['SOLUSDT', 'SOL/USDT', 'Solana / Tether'],
  ['BNBUSDT', 'BNB/USDT', 'BNB / Tether'],
  ['XRPUSDT', 'XRP/USDT', 'XRP / Tether'],
  ['ADAUSDT', 'ADA/USDT', 'Cardano / Tether'],
  ['DOGEUSDT', 'DOGE/USDT', 'Dogecoin / Tether'],
  ['AVAXUSDT', 'AVAX/USDT', 'Avalanche / Tether'],
  ['LINKUSDT', 'LINK/USDT', 'Chainlink / Tether'],
  ['DOTUSDT', 'DOT/USDT', 'Polkadot / Tether'],
];

type RawTicker = Record<string, string | number>;
type RawKline = (string | number)[];

const json = (body: Buffer | string, status = 200): UpstreamReply => ({ status, body });
const tickerRoute = (reply: UpstreamReply | ((url: URL, count: number) => UpstreamReply)): UpstreamRoute => ({ path: '/api/v3/ticker/24hr', reply });
const klineRoute = (query: Record<string, string>, reply: UpstreamReply | ((url: URL, count: number) => UpstreamReply)): UpstreamRoute => ({
  path: '/api/v3/klines',
  query,
  reply,
});
/** As the real API answers `?symbols=[...]`: only the symbols asked for, in the payload's order. */
const tickersAsAsked =
  (body: Buffer) =>
  (url: URL): UpstreamReply => {
    const asked = new Set(JSON.parse(url.searchParams.get('symbols') ?? '[]') as string[]);
    return json(JSON.stringify((JSON.parse(body.toString()) as RawTicker[]).filter((t) => asked.has(t.symbol as string))));
  };
const klineRequests = (requests: URL[]) => requests.filter((u) => u.pathname === '/api/v3/klines');

/** The test's own reading of a ticker into the quote the spec asks for. */
const expectedQuote = (symbol: string, t: RawTicker): Quote => ({
  symbol,
  price: Number(t.lastPrice),
  change24h: Number(t.priceChangePercent),
  volume24h: Number(t.volume),
  observedAt: t.closeTime as number,
});

/** The test's own reading of a kline row. */
const expectedCandle = (symbol: string, interval: Candle['interval'], row: RawKline): Candle => ({
  symbol,
  interval,
  openTime: row[0] as number,
  open: Number(row[1]),
  high: Number(row[2]),
  low: Number(row[3]),
  close: Number(row[4]),
  volume: Number(row[5]),
});

describe('binance connector', () => {
  it('declares itself as the spec says', () => {
    const connector = createBinanceConnector();
    expect({ source: connector.source, kind: connector.kind, pollMs: connector.pollMs, defaultBaseUrl: connector.defaultBaseUrl }).toEqual({
      source: 'binance',
      kind: 'market-data',
      pollMs: 30_000,
      defaultBaseUrl: 'https://api.binance.com',
    });
    expect(connector.symbols).toEqual(PAIRS.map(([, symbol]) => symbol));
    expect(createBinanceConnector(['ETHUSDT', 'DOGEUSDT']).symbols).toEqual(['ETH/USDT', 'DOGE/USDT']);
  });

  // This repository's excerpts everywhere (13 of 2 519 tickers, the newest 150 klines), the whole recordings where ../shared exists.
  describe.each([
    {
      recording: 'the excerpts',
      test: it,
      tickers: () => recordedFixture('binance/ticker_24hr_excerpt_2024-03-10.json'),
      klines: () => recordedFixture('binance/klines_BTCUSDT_1h_excerpt_2025-09-19.json'),
      klineRows: 150,
    },
    {
      recording: 'the whole recordings',
      test: withShared,
      tickers: () => sharedFixture('binance/api_v3_ticker_24hr_all_2024-03-10.json'),
      klines: () => sharedFixture('binance/api_v3_klines_BTCUSDT_1h_2024-09-19_to_2025-09-19.json'),
      klineRows: 8760,
    },
  ])('on $recording of real answers', ({ test, tickers, klines, klineRows }) => {
    /** As the real API: the newest `limit` rows. */
    const klinesUpToLimit =
      (rows: RawKline[]) =>
      (url: URL): UpstreamReply =>
        json(JSON.stringify(rows.slice(-Number(url.searchParams.get('limit')))));

    test('asks for the ten pairs as a URL-encoded JSON array and maps every real ticker field by field', async () => {
      const body = tickers();
      const { batch, requests } = await pollConnector(createBinanceConnector(), [tickerRoute(tickersAsAsked(body)), klineRoute({}, json('[]'))], {
        now: NOW,
        backfill: false,
      });
      const tickerRequest = requests.find((u) => u.pathname === '/api/v3/ticker/24hr')!;
      expect(tickerRequest.search).toBe(`?symbols=${encodeURIComponent(JSON.stringify(PAIRS.map(([p]) => p)))}`);
      expect(tickerRequest.search).toMatch(/^\?symbols=%5B%22BTCUSDT%22%2C%22ETHUSDT%22%2C/);

      const raw = JSON.parse(body.toString()) as RawTicker[];
      const bySymbol = new Map(raw.map((t) => [t.symbol as string, t]));
      expect(batch.quotes).toHaveLength(10);
      for (const [pair, symbol] of PAIRS) {
        expect(batch.quotes.find((q) => q.symbol === symbol)).toEqual(expectedQuote(symbol, bySymbol.get(pair)!));
      }
      // Spot checks on the raw text, so a mapping bug cannot hide behind the helper above.
      expect(batch.quotes.find((q) => q.symbol === 'BTC/USDT')).toEqual({
        symbol: 'BTC/USDT',
        price: 69010.01,
        change24h: 1.253,
        volume24h: 22470.37258,
        observedAt: 1710038820176,
      });
      expect(batch.quotes.find((q) => q.symbol === 'XRP/USDT')).toMatchObject({ price: 0.6226, change24h: -0.828 });

      expect(batch.markets).toEqual(
        PAIRS.map(([, symbol, name]) => ({ symbol, name, type: 'crypto', source: 'binance', staleAfterMs: 5 * 60_000, halted: false })),
      );
      expect(batch.problems).toEqual({ invalid: 0, examples: [] });
    });

    test('quotes only the tracked pairs when the answer holds every symbol', async () => {
      const { batch } = await pollConnector(createBinanceConnector(['BTCUSDT', 'ETHUSDT']), [tickerRoute(json(tickers())), klineRoute({}, json('[]'))], {
        now: NOW,
      });
      expect(batch.quotes.map((q) => q.symbol).sort()).toEqual(['BTC/USDT', 'ETH/USDT']);
      const eth = (JSON.parse(tickers().toString()) as RawTicker[]).find((t) => t.symbol === 'ETHUSDT')!;
      expect(batch.quotes.find((q) => q.symbol === 'ETH/USDT')).toEqual(expectedQuote('ETH/USDT', eth));
    });

    test('maps the real 1h klines: the newest 150 on backfill, the newest 2 after', async () => {
      const rows = JSON.parse(klines().toString()) as RawKline[];
      expect(rows).toHaveLength(klineRows);
      const routes = [
        tickerRoute(tickersAsAsked(tickers())),
        klineRoute({ symbol: 'BTCUSDT', interval: '1h' }, klinesUpToLimit(rows)),
        klineRoute({}, json('[]')),
      ];
      const connector = createBinanceConnector(['BTCUSDT']);

      const full = await pollConnector(connector, routes, { now: NOW, backfill: true });
      const hourly = full.batch.candles.filter((c) => c.interval === '1h');
      expect(hourly).toEqual(rows.slice(-150).map((r) => expectedCandle('BTC/USDT', '1h', r)));
      expect(full.batch.candles).toHaveLength(150);
      // The newest row, read off the file: 2025-09-19 13:00 UTC.
      expect(hourly.at(-1)).toEqual({
        symbol: 'BTC/USDT',
        interval: '1h',
        openTime: 1758286800000,
        open: 116162.45,
        high: 116352.56,
        low: 116075,
        close: 116217.5,
        volume: 307.89432,
      });
      expect(hourly.every((c, i) => i === 0 || c.openTime - hourly[i - 1]!.openTime === 3_600_000)).toBe(true);

      const recent = await pollConnector(connector, routes, { now: NOW, backfill: false });
      expect(recent.batch.candles).toEqual(rows.slice(-2).map((r) => expectedCandle('BTC/USDT', '1h', r)));
      expect(recent.batch.problems.invalid).toBe(0);
    });
  });

  describe('on the whole 1h kline recording', () => {
    withShared('maps all 8760 real rows when the upstream sends them, without a problem when the upstream sends them, without a problem', async () => {
      const body = sharedFixture('binance/api_v3_klines_BTCUSDT_1h_2024-09-19_to_2025-09-19.json');
      const rows = JSON.parse(body.toString()) as RawKline[];
      const { batch } = await pollConnector(
        createBinanceConnector(['BTCUSDT']),
        [tickerRoute(json('[]')), klineRoute({ interval: '1h' }, json(body)), klineRoute({}, json('[]'))],
        { now: NOW },
      );
      expect(batch.candles).toHaveLength(8760);
      expect(batch.candles[0]).toEqual({
        symbol: 'BTC/USDT',
        interval: '1h',
        openTime: 1726754400000,
        open: 63035.98,
        high: 63500.84,
        low: 62888,
        close: 62935.83,
        volume: 2941.04278,
      });
      for (const i of [1, 1000, 4321, 8000]) expect(batch.candles[i]).toEqual(expectedCandle('BTC/USDT', '1h', rows[i]!));
      expect(batch.quotes).toEqual([]); // BTCUSDT absent from the ticker answer: simply not quoted
      expect(batch.problems.invalid).toBe(0);
    });
  });

  describe('on small hand-made answers', () => {
    const klinesTwo = ownFixture('binance/klines_two.json');
    const twoRows = JSON.parse(klinesTwo.toString()) as RawKline[];

    it('keeps the valid tickers, counts each malformed one, and leaves an absent pair unquoted', async () => {
      const { batch } = await pollConnector(
        createBinanceConnector(['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'XRPUSDT', 'ADAUSDT', 'DOGEUSDT']),
        [tickerRoute(json(ownFixture('binance/ticker_mixed.json'))), klineRoute({}, json('[]'))],
        { now: NOW, backfill: false },
      );
      expect(batch.quotes).toEqual<Quote[]>([
        { symbol: 'BTC/USDT', price: 97250.1, change24h: 1.25, volume24h: 15234.12345, observedAt: 1795413598766 },
        { symbol: 'XRP/USDT', price: 0.6226, change24h: -0.828, volume24h: 411328801, observedAt: 1795413598349 },
      ]);
      // ETH: price not a number; SOL: negative price; BNB: no volume; ADA: closeTime as a string. DOGE is absent: no problem.
      expect(batch.problems.invalid).toBe(4);
      expect(batch.problems.examples).toEqual([
        expect.stringMatching(/^\[1\] lastPrice: /),
        expect.stringMatching(/^\[2\] lastPrice: /),
        expect.stringMatching(/^\[3\] volume: /),
      ]);
      expect(batch.markets.map((m) => m.symbol)).toEqual(['BTC/USDT', 'ETH/USDT', 'SOL/USDT', 'BNB/USDT', 'XRP/USDT', 'ADA/USDT', 'DOGE/USDT']);
    });

    it('maps kline rows exactly and counts the malformed ones per answer', async () => {
      const { batch } = await pollConnector(
        createBinanceConnector(['BTCUSDT']),
        [
          tickerRoute(tickersAsAsked(ownFixture('binance/ticker_mixed.json'))),
          klineRoute({ interval: '1h' }, json(ownFixture('binance/klines_mixed.json'))),
          klineRoute({}, json(klinesTwo)),
        ],
        { now: NOW, backfill: true },
      );
      const hourly = batch.candles.filter((c) => c.interval === '1h');
      // high "abc", openTime as a string, negative volume: skipped.
      expect(hourly).toEqual([
        { symbol: 'BTC/USDT', interval: '1h', openTime: 1795406400000, open: 96900, high: 97350, low: 96750, close: 97000, volume: 98 },
        { symbol: 'BTC/USDT', interval: '1h', openTime: 1795413600000, open: 97200, high: 97300, low: 97100, close: 97250.1, volume: 4.025 },
      ]);
      for (const interval of INTERVALS.filter((i) => i !== '1h')) {
        expect(batch.candles.filter((c) => c.interval === interval)).toEqual(twoRows.map((r) => expectedCandle('BTC/USDT', interval, r)));
      }
      expect(batch.problems.invalid).toBe(3);
      expect(batch.quotes.map((q) => q.symbol)).toEqual(['BTC/USDT']);
    });

    it('keeps the batch when one kline interval answers 500, and counts it', async () => {
      const { batch } = await pollConnector(
        createBinanceConnector(['BTCUSDT', 'XRPUSDT']),
        [
          tickerRoute(tickersAsAsked(ownFixture('binance/ticker_mixed.json'))),
          klineRoute({ symbol: 'XRPUSDT', interval: '4h' }, { status: 500, body: '{"code":-1000,"msg":"An unknown error occurred"}' }),
          klineRoute({}, json(klinesTwo)),
        ],
        { now: NOW, backfill: true },
      );
      expect(batch.quotes.map((q) => q.symbol)).toEqual(['BTC/USDT', 'XRP/USDT']);
      expect(batch.candles).toHaveLength(2 * 5 * 2 - 2);
      expect(batch.candles.filter((c) => c.symbol === 'XRP/USDT' && c.interval === '4h')).toEqual([]);
      expect(batch.candles.filter((c) => c.symbol === 'BTC/USDT' && c.interval === '4h')).toHaveLength(2);
      expect(batch.problems).toEqual({ invalid: 1, examples: ['XRPUSDT 4h: binance: HTTP 500'] });
    });

    it('counts a kline answer that changed shape as that request’s problem', async () => {
      const { batch } = await pollConnector(
        createBinanceConnector(['BTCUSDT']),
        [tickerRoute(json('[]')), klineRoute({ interval: '1d' }, json('{"code":-1121,"msg":"Invalid symbol."}')), klineRoute({}, json(klinesTwo))],
        { now: NOW },
      );
      expect(batch.candles).toHaveLength(4 * 2);
      expect(batch.problems.invalid).toBe(1);
      expect(batch.problems.examples[0]).toMatch(/^BTCUSDT 1d: binance: the kline list changed shape/);
    });

    it('fails the poll with a schema error, without echoing the payload, when the ticker envelope is not an array', async () => {
      const error = await pollConnector(
        createBinanceConnector(['BTCUSDT']),
        [tickerRoute(json(ownFixture('binance/ticker_schema_changed.json'))), klineRoute({}, json(klinesTwo))],
        { now: NOW },
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UpstreamError);
      expect(error).toMatchObject({ source: 'binance', failure: 'schema', retryable: false });
      expect((error as Error).message).toMatch(/ticker list changed shape/);
      expect((error as Error).message).not.toMatch(/97250/);
    });

    it('fails the poll when the ticker request fails', async () => {
      await expect(
        pollConnector(createBinanceConnector(['BTCUSDT']), [tickerRoute({ status: 503, body: 'busy' }), klineRoute({}, json(klinesTwo))], { now: NOW }),
      ).rejects.toMatchObject({ failure: 'http', details: { status: 503 } });
    });

    it('rethrows the first error when every kline request failed', async () => {
      await expect(
        pollConnector(
          createBinanceConnector(['BTCUSDT', 'XRPUSDT']),
          [
            tickerRoute(json(ownFixture('binance/ticker_mixed.json'))),
            klineRoute({ symbol: 'BTCUSDT', interval: '5m' }, { status: 429, body: '{}', headers: { 'retry-after': '30' } }),
            klineRoute({}, { status: 500, body: 'oops' }),
          ],
          { now: NOW },
        ),
      ).rejects.toMatchObject({ source: 'binance', failure: 'rate_limited', details: { status: 429, retryAfterMs: 30_000 } });
    });

    it('asks limit=150 per pair and interval on backfill, and limit=2 after', async () => {
      const routes = [tickerRoute(json('[]')), klineRoute({}, json(klinesTwo))];
      const connector = createBinanceConnector(['BTCUSDT', 'ETHUSDT']);
      const asked = (requests: URL[]) =>
        klineRequests(requests)
          .map((u) => `${u.pathname}${u.search}`)
          .sort();
      const expected = (limit: number) =>
        ['BTCUSDT', 'ETHUSDT'].flatMap((p) => INTERVALS.map((i) => `/api/v3/klines?symbol=${p}&interval=${i}&limit=${limit}`)).sort();

      const first = await pollConnector(connector, routes, { now: NOW, backfill: true });
      expect(asked(first.requests)).toEqual(expected(150));
      const next = await pollConnector(connector, routes, { now: NOW, backfill: false });
      expect(asked(next.requests)).toEqual(expected(2));
    });

    it('has at most 4 requests in flight', async () => {
      let inFlight = 0;
      let peak = 0;
      const slow = (body: Buffer | string) => (): UpstreamReply => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        // Registered before the server's own timer of the same delay: counts down just before the answer leaves.
        setTimeout(() => inFlight--, 40);
        return { body, delayMs: 40 };
      };
      const { batch, requests } = await pollConnector(createBinanceConnector(), [tickerRoute(slow('[]')), klineRoute({}, slow(klinesTwo))], {
        now: NOW,
        backfill: false,
      });
      expect(klineRequests(requests)).toHaveLength(10 * 5);
      expect(peak).toBe(4);
      expect(batch.candles).toHaveLength(10 * 5 * 2);
    });
  });
});

describe('strict decimals and untracked symbols', () => {
  it('counts a hex or blank price as invalid, and never counts a symbol it did not ask for', async () => {
    const tickers = JSON.stringify([
      { symbol: 'BTCUSDT', lastPrice: '0x10', priceChangePercent: '1', volume: '1', closeTime: 1 },
      { symbol: 'ETHUSDT', lastPrice: '3000.5', priceChangePercent: '.5', volume: '1', closeTime: 1 },
      { symbol: 'DEADUSDT', lastPrice: '0', priceChangePercent: '0', volume: '0', closeTime: 1 },
    ]);
    const { batch } = await pollConnector(
      createBinanceConnector(['BTCUSDT', 'ETHUSDT']),
      [
        { path: '/api/v3/ticker/24hr', reply: { body: tickers } },
        { path: '/api/v3/klines', reply: { body: '[]' } },
      ],
      { now: 2 },
    );
    expect(batch.quotes).toEqual([]);
    expect(batch.problems.invalid).toBe(2); // BTC's hex price and ETH's '.5': DEADUSDT was not asked for
  });
});
