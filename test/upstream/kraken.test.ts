/**
 * The Kraken OHLC connector against the spec: the real 4h answer in ../shared field by field
 * (skipped with a message where absent), and small hand-made answers (everywhere) for the quote
 * derived from the candles, errors inside a 200, bad rows, failed requests, backfill depth and the
 * request cap.
 */
import type { Candle, Interval, Quote } from '../../src/domain/market.js';
import { INTERVALS } from '../../src/domain/market.js';
import { createKrakenConnector } from '../../src/upstream/connectors/kraken.js';
import { UpstreamError } from '../../src/upstream/errors.js';
import { pollConnector } from '../support/connectors.js';
import { ownFixture, recordedFixture, sharedFixture, withShared } from '../support/upstream-fixtures.js';
import type { UpstreamReply, UpstreamRoute } from '../support/upstream-server.js';

const NOW = Date.UTC(2026, 10, 23, 6, 0);
const HOUR_MS = 3_600_000;
const MINUTES: Record<Interval, string> = { '5m': '5', '15m': '15', '1h': '60', '4h': '240', '1d': '1440' };

const PAIRS: [string, string][] = [
  ['XBTUSD', 'BTC/USD'],
  ['ETHUSD', 'ETH/USD'],
  ['SOLUSD', 'SOL/USD'],
  ['XRPUSD', 'XRP/USD'],
  ['ADAUSD', 'ADA/USD'],
  ['DOTUSD', 'DOT/USD'],
  ['LINKUSD', 'LINK/USD'],
  ['LTCUSD', 'LTC/USD'],
];

type RawRow = (string | number)[];

const json = (body: Buffer | string, status = 200): UpstreamReply => ({ status, body });
const ohlc = (query: { pair?: string; interval?: Interval }, reply: UpstreamReply | ((url: URL, count: number) => UpstreamReply)): UpstreamRoute => ({
  path: '/0/public/OHLC',
  query: { ...(query.pair ? { pair: query.pair } : {}), ...(query.interval ? { interval: MINUTES[query.interval] } : {}) },
  reply,
});
const EMPTY = ownFixture('kraken/ohlc_empty.json');
const FIVE = ownFixture('kraken/ohlc_XXBTZUSD_5.json');
const HOURLY = ownFixture('kraken/ohlc_XXBTZUSD_60.json');
const rowsOf = (body: Buffer): RawRow[] => (JSON.parse(body.toString()) as { result: { XXBTZUSD: RawRow[] } }).result.XXBTZUSD;
/** The same answer with only some of its rows. */
const withRows = (rows: RawRow[]): string => JSON.stringify({ error: [], result: { XXBTZUSD: rows, last: 0 } });

/** The test's own reading of an OHLC row: time in seconds, vwap (index 5) is not the volume. */
const expectedCandle = (symbol: string, interval: Interval, row: RawRow): Candle => ({
  symbol,
  interval,
  openTime: Number(row[0]) * 1000,
  open: Number(row[1]),
  high: Number(row[2]),
  low: Number(row[3]),
  close: Number(row[4]),
  volume: Number(row[6]),
});

/** 5m and 1h from the hand-made answers, every other interval empty. */
const quoteRoutes = (): UpstreamRoute[] => [ohlc({ interval: '5m' }, json(FIVE)), ohlc({ interval: '1h' }, json(HOURLY)), ohlc({}, json(EMPTY))];

describe('kraken connector', () => {
  it('declares itself as the spec says', () => {
    const connector = createKrakenConnector();
    expect({ source: connector.source, kind: connector.kind, pollMs: connector.pollMs, defaultBaseUrl: connector.defaultBaseUrl }).toEqual({
      source: 'kraken',
      kind: 'market-data',
      pollMs: 60_000,
      defaultBaseUrl: 'https://api.kraken.com',
    });
    expect(connector.symbols).toEqual(PAIRS.map(([, symbol]) => symbol));
    expect(createKrakenConnector(['ETHUSD', 'LTCUSD']).symbols).toEqual(['ETH/USD', 'LTC/USD']);
  });

  // This repository's excerpt (the newest 40 candles) everywhere, the whole recording where ../shared exists.
  describe.each([
    { recording: 'an excerpt of', test: it, rowCount: 40, body: () => recordedFixture('kraken/ohlc_XXBTZUSD_240_excerpt_2023-02-19.json') },
    {
      recording: 'the whole',
      test: withShared,
      rowCount: 720,
      body: () => sharedFixture('kraken/public_OHLC_XXBTZUSD_interval240_2022-10-23_to_2023-02-19.json'),
    },
  ])('on $recording real 4h recording (Kraken names the pair XXBTZUSD)', ({ test, rowCount, body }) => {
    const routes = (): UpstreamRoute[] => [ohlc({ pair: 'XBTUSD', interval: '4h' }, json(body())), ohlc({}, json(EMPTY))];

    test('maps every candle field by field on backfill', async () => {
      const rows = rowsOf(body());
      expect(rows).toHaveLength(rowCount);
      const { batch, requests } = await pollConnector(createKrakenConnector(['XBTUSD']), routes(), { now: NOW, backfill: true });
      expect(requests.map((u) => `${u.pathname}${u.search}`).sort()).toEqual(INTERVALS.map((i) => `/0/public/OHLC?pair=XBTUSD&interval=${MINUTES[i]}`).sort());
      expect(batch.candles).toEqual(rows.map((r) => expectedCandle('BTC/USD', '4h', r)));
      expect(batch.candles.at(-1)).toEqual({
        symbol: 'BTC/USD',
        interval: '4h',
        openTime: 1676836800000,
        open: 24531.1,
        high: 24573.2,
        low: 24251.2,
        close: 24385.2,
        volume: 370.71727172,
      });
      expect(batch.candles.every((c) => c.openTime % (4 * HOUR_MS) === 0)).toBe(true);
      expect(batch.problems).toEqual({ invalid: 0, examples: [] });
      expect(batch.markets).toEqual([
        { symbol: 'BTC/USD', name: 'Bitcoin / US Dollar', type: 'crypto', source: 'kraken', staleAfterMs: 5 * 60_000, halted: false },
      ]);
      expect(batch.quotes).toEqual([]); // no 5m candles: no quote rather than a wrong one
    });

    test('sends only the newest 2 after the backfill', async () => {
      const { batch } = await pollConnector(createKrakenConnector(['XBTUSD']), routes(), { now: NOW, backfill: false });
      expect(batch.candles).toEqual(
        rowsOf(body())
          .slice(-2)
          .map((r) => expectedCandle('BTC/USD', '4h', r)),
      );
    });
  });

  describe('on small hand-made answers', () => {
    it('derives the quote: newest 5m close, change vs the 1h close a day before, volume of the last 24 hourly candles', async () => {
      const { batch } = await pollConnector(createKrakenConnector(['XBTUSD']), quoteRoutes(), { now: NOW, backfill: true });
      // The test's own reading of the two answers.
      const five = rowsOf(FIVE);
      const hourly = rowsOf(HOURLY);
      const newest = expectedCandle('BTC/USD', '5m', five.at(-1)!);
      const dayAgo = newest.openTime - 24 * HOUR_MS;
      const reference = hourly.filter((r) => Number(r[0]) * 1000 <= dayAgo).at(-1)!;
      const lastDay = hourly.filter((r) => Number(r[0]) * 1000 > dayAgo);
      expect(lastDay).toHaveLength(24);
      expect(batch.quotes).toEqual<Quote[]>([
        {
          symbol: 'BTC/USD',
          price: newest.close,
          change24h: Math.round(((newest.close - Number(reference[4])) / Number(reference[4])) * 100_000) / 1000,
          volume24h: lastDay.reduce((sum, r) => sum + Number(r[6]), 0),
          observedAt: newest.openTime + 5 * 60_000,
        },
      ]);
      // The same in plain numbers: 97200 vs 90000 (2026-11-22 05:00), 24 candles of 0.25..1 (the two at 100 are older).
      expect(batch.quotes[0]).toEqual({ symbol: 'BTC/USD', price: 97200, change24h: 8, volume24h: 15, observedAt: Date.UTC(2026, 10, 23, 5, 55) });
      expect(batch.candles.filter((c) => c.interval === '5m')).toEqual(five.map((r) => expectedCandle('BTC/USD', '5m', r)));
      expect(batch.candles.filter((c) => c.interval === '1h')).toEqual(hourly.map((r) => expectedCandle('BTC/USD', '1h', r)));
      expect(batch.problems.invalid).toBe(0);
    });

    it('stamps the quote at the 5m candle’s end, but never later than now', async () => {
      const now = Date.UTC(2026, 10, 23, 5, 52);
      const { batch } = await pollConnector(createKrakenConnector(['XBTUSD']), quoteRoutes(), { now, backfill: false });
      expect(batch.quotes[0]!.observedAt).toBe(now);
    });

    it('sends every candle on backfill and the newest 2 per interval after; the quote stays the same', async () => {
      const connector = createKrakenConnector(['XBTUSD']);
      const full = await pollConnector(connector, quoteRoutes(), { now: NOW, backfill: true });
      expect(full.batch.candles).toHaveLength(4 + 26);
      const recent = await pollConnector(connector, quoteRoutes(), { now: NOW, backfill: false });
      expect(recent.batch.candles).toEqual([
        ...rowsOf(FIVE)
          .slice(-2)
          .map((r) => expectedCandle('BTC/USD', '5m', r)),
        ...rowsOf(HOURLY)
          .slice(-2)
          .map((r) => expectedCandle('BTC/USD', '1h', r)),
      ]);
      expect(recent.batch.quotes).toEqual(full.batch.quotes);
    });

    it('asks each pair once per interval, in minutes, under the pair names it knows', async () => {
      const { requests } = await pollConnector(createKrakenConnector(['XBTUSD', 'LTCUSD']), [ohlc({}, json(EMPTY))], { now: NOW });
      expect(requests.map((u) => `${u.pathname}${u.search}`).sort()).toEqual(
        ['XBTUSD', 'LTCUSD'].flatMap((p) => ['5', '15', '60', '240', '1440'].map((m) => `/0/public/OHLC?pair=${p}&interval=${m}`)).sort(),
      );
    });

    it('quotes a change of 0 when there is no hourly candle a day back, and sums the hours it has', async () => {
      const shortHistory = rowsOf(HOURLY).slice(-5);
      const { batch } = await pollConnector(
        createKrakenConnector(['XBTUSD']),
        [ohlc({ interval: '5m' }, json(FIVE)), ohlc({ interval: '1h' }, json(withRows(shortHistory))), ohlc({}, json(EMPTY))],
        { now: NOW },
      );
      expect(batch.quotes).toEqual([
        {
          symbol: 'BTC/USD',
          price: 97200,
          change24h: 0,
          volume24h: shortHistory.reduce((s, r) => s + Number(r[6]), 0),
          observedAt: Date.UTC(2026, 10, 23, 5, 55),
        },
      ]);

      const noHourly = await pollConnector(
        createKrakenConnector(['XBTUSD']),
        [ohlc({ interval: '5m' }, json(FIVE)), ohlc({ interval: '1h' }, { status: 502, body: 'bad gateway' }), ohlc({}, json(EMPTY))],
        { now: NOW },
      );
      expect(noHourly.batch.quotes).toEqual([{ symbol: 'BTC/USD', price: 97200, change24h: 0, volume24h: 0, observedAt: Date.UTC(2026, 10, 23, 5, 55) }]);
      expect(noHourly.batch.problems).toEqual({ invalid: 1, examples: ['XBTUSD 1h: kraken: HTTP 502'] });
    });

    it('leaves the pair unquoted, but keeps its other candles, when the 5m request fails', async () => {
      const { batch } = await pollConnector(
        createKrakenConnector(['XBTUSD']),
        [ohlc({ interval: '5m' }, { status: 500, body: 'oops' }), ohlc({ interval: '1h' }, json(HOURLY)), ohlc({}, json(EMPTY))],
        { now: NOW, backfill: true },
      );
      expect(batch.quotes).toEqual([]);
      expect(batch.candles).toHaveLength(26);
      expect(batch.problems).toEqual({ invalid: 1, examples: ['XBTUSD 5m: kraken: HTTP 500'] });
    });

    it('skips and counts malformed rows, keeping the rest of the answer', async () => {
      const { batch } = await pollConnector(
        createKrakenConnector(['XBTUSD']),
        [ohlc({ interval: '1h' }, json(ownFixture('kraken/ohlc_XXBTZUSD_mixed.json'))), ohlc({}, json(EMPTY))],
        { now: NOW, backfill: true },
      );
      // A high of "abc" and a time as an ISO string.
      expect(batch.problems.invalid).toBe(2);
      expect(batch.problems.examples).toEqual([expect.stringMatching(/^\[1\] 2: /), expect.stringMatching(/^\[2\] 0: /)]);
      expect(batch.candles).toEqual([
        { symbol: 'BTC/USD', interval: '1h', openTime: Date.UTC(2026, 10, 23, 4), open: 96900, high: 97350, low: 96750, close: 97200, volume: 0.75 },
        { symbol: 'BTC/USD', interval: '1h', openTime: Date.UTC(2026, 10, 23, 5), open: 97200, high: 97650, low: 97050, close: 97500, volume: 1 },
      ]);
    });

    it('keeps the batch when one interval is rate limited inside a 200, and counts it', async () => {
      const { batch } = await pollConnector(
        createKrakenConnector(['XBTUSD', 'ETHUSD']),
        [ohlc({ pair: 'ETHUSD', interval: '1d' }, json(ownFixture('kraken/error_rate_limited.json'))), ...quoteRoutes()],
        { now: NOW },
      );
      expect(batch.quotes.map((q) => q.symbol)).toEqual(['BTC/USD', 'ETH/USD']);
      expect(batch.problems).toEqual({ invalid: 1, examples: ['ETHUSD 1d: kraken: answered EGeneral:Too many requests'] });
    });

    it('counts an answer whose rows changed shape as that request’s problem', async () => {
      const { batch } = await pollConnector(
        createKrakenConnector(['XBTUSD']),
        [ohlc({ interval: '4h' }, json(ownFixture('kraken/ohlc_schema_changed.json'))), ...quoteRoutes()],
        { now: NOW },
      );
      expect(batch.quotes).toHaveLength(1);
      expect(batch.problems.invalid).toBe(1);
      expect(batch.problems.examples[0]).toMatch(/^XBTUSD 4h: kraken: the OHLC rows changed shape/);
    });

    it.each<[string, string, string]>([
      ['EGeneral:Too many requests', 'kraken/error_rate_limited.json', 'rate_limited'],
      ['EAPI:Rate limit exceeded', 'kraken/error_rate_limit_exceeded.json', 'rate_limited'],
      ['EQuery:Unknown asset pair', 'kraken/error_unknown_pair.json', 'http'],
    ])('fails the poll when every request answers %s in a 200', async (text, fixture, failure) => {
      const error = await pollConnector(createKrakenConnector(['XBTUSD']), [ohlc({}, json(ownFixture(fixture)))], { now: NOW }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UpstreamError);
      expect(error).toMatchObject({ source: 'kraken', failure });
      expect((error as Error).message).toContain(text);
    });

    it.each<[string, UpstreamReply, string]>([
      ['rows that changed shape', json(ownFixture('kraken/ohlc_schema_changed.json')), 'schema'],
      ['an envelope without `error`', json('{"result": {"XXBTZUSD": [], "last": 0}}'), 'schema'],
      ['an HTML page', { body: '<html><body>Cloudflare</body></html>', contentType: 'text/html' }, 'parse'],
      ['HTTP 520', { status: 520, body: 'oops' }, 'http'],
    ])('rethrows the first error when every request answers %s', async (_what, reply, failure) => {
      await expect(pollConnector(createKrakenConnector(['XBTUSD', 'ETHUSD']), [ohlc({}, reply)], { now: NOW })).rejects.toMatchObject({
        source: 'kraken',
        failure,
      });
    });

    it('has at most 4 requests in flight', async () => {
      let inFlight = 0;
      let peak = 0;
      const slow = (): UpstreamReply => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        // Registered before the server's own timer of the same delay: counts down just before the answer leaves.
        setTimeout(() => inFlight--, 40);
        return { body: EMPTY, delayMs: 40 };
      };
      const { requests } = await pollConnector(createKrakenConnector(), [ohlc({}, slow)], { now: NOW });
      expect(requests).toHaveLength(8 * 5);
      expect(peak).toBeGreaterThan(1);
      expect(peak).toBeLessThanOrEqual(4);
    });
  });
});

describe('which Kraken errors are worth another try', () => {
  it.each([
    ['EQuery:Unknown asset pair', false],
    ['EGeneral:Invalid arguments', false],
    ['EService:Unavailable', true],
  ])('%s: retryable %s', async (message, retryable) => {
    const error = await pollConnector(createKrakenConnector(['XBTUSD']), [{ path: '/0/public/OHLC', reply: { body: JSON.stringify({ error: [message] }) } }], {
      now: 1,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).retryable).toBe(retryable);
  });
});
