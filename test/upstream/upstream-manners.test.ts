/**
 * Upstream manners with the real Binance connector (one ticker request, then 50 kline requests,
 * four at a time) against a loopback upstream: a 429, a 418 or any Retry-After stops the source's
 * remaining requests and pushes the next poll past the wait; a hung upstream opens the circuit after
 * five failed requests whether the poll makes one request or fifty. Requests are counted where
 * they leave (a spy on fetch) and where they arrive (the server's log).
 */
import { ModuleMocker } from 'jest-mock';
import { pino } from 'pino';
import { createBinanceConnector } from '../../src/upstream/connectors/binance.js';
import { createKrakenConnector } from '../../src/upstream/connectors/kraken.js';
import { createStocksConnector } from '../../src/upstream/connectors/stocks.js';
import type { Connector, UpstreamBatch } from '../../src/upstream/connector.js';
import { createUpstreamHttp } from '../../src/upstream/http.js';
import { createPoller } from '../../src/upstream/poller.js';
import { ownFixture } from '../support/upstream-fixtures.js';
import { startUpstreamServer, type UpstreamReply, type UpstreamServer } from '../support/upstream-server.js';

const mocks = new ModuleMocker(globalThis);

const TICKERS = ownFixture('binance/ticker_mixed.json');
const KLINES = ownFixture('binance/klines_two.json');
const ok = (body: Buffer): UpstreamReply => ({ body });

/** What left the process and what came back, in order: a request sent after a 429 arrived shows up after it. */
type Event = { sent: string } | { answered: number; path: string };
let events: Event[];
let server: UpstreamServer | undefined;
beforeEach(() => {
  events = [];
  const realFetch = globalThis.fetch;
  mocks.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input));
    events.push({ sent: url.pathname });
    const response = await realFetch(input, init);
    events.push({ answered: response.status, path: url.pathname });
    return response;
  });
});
afterEach(async () => {
  mocks.restoreAllMocks();
  await server?.close();
  server = undefined;
});

const sentAfter = (status: number): number => {
  const at = events.findIndex((e) => 'answered' in e && e.answered === status);
  expect(at).toBeGreaterThanOrEqual(0);
  return events.slice(at + 1).filter((e) => 'sent' in e).length;
};
const sent = () => events.filter((e) => 'sent' in e).length;

async function binancePoller(klines: (n: number) => UpstreamReply, ticker: (n: number) => UpstreamReply = () => ok(TICKERS), timeoutMs = 2_000) {
  server = await startUpstreamServer([
    { path: '/api/v3/ticker/24hr', reply: (_url, n) => ticker(n) },
    { path: '/api/v3/klines', reply: (_url, n) => klines(n) },
  ]);
  const batches: UpstreamBatch[] = [];
  const poller = createPoller({
    connector: createBinanceConnector(),
    http: createUpstreamHttp({ source: 'binance', baseUrl: server.baseUrl, timeoutMs }),
    sink: async (batch) => void batches.push(batch),
    pollMs: 30_000,
    logger: pino({ level: 'silent' }),
    now: () => Date.UTC(2026, 10, 23, 6, 0),
    retryDelayMs: 10,
  });
  return { poller, batches, server };
}

it('a 429 in the middle of a poll: no request is sent after it, the quotes already read are kept, the next poll waits for Retry-After', async () => {
  const { poller, batches, server } = await binancePoller((n) =>
    n === 10 ? { status: 429, body: '{"code":-1003}', headers: { 'retry-after': '120' } } : ok(KLINES),
  );
  await poller.pollOnce();
  const answeredAt = Date.now();

  expect(sentAfter(429)).toBe(0);
  expect(server.requests).toHaveLength(sent());
  // The ticker and at most the three kline requests already in flight beside the tenth.
  expect(server.requests.length).toBeLessThanOrEqual(1 + 10 + 3);
  expect(batches).toHaveLength(1); // the ticker's quotes and the candles read before the 429
  const stats = poller.stats();
  expect(stats.notBefore).not.toBeNull();
  expect(stats.notBefore!).toBeGreaterThanOrEqual(answeredAt + 120_000 - 5_000);

  // A poll asked for during the wait (pollAll, a restart of the schedule) sends nothing.
  const before = sent();
  await poller.pollOnce();
  expect(sent()).toBe(before);
  expect(poller.stats().failures).toEqual({ rate_limited: 1 });
  expect(poller.stats().circuit).toBe('closed'); // a rate limit is not the upstream failing
});

it('a 418 (an IP ban) without Retry-After holds the source for ten minutes', async () => {
  const { poller } = await binancePoller((n) => (n === 3 ? { status: 418, body: '{"code":-1003}' } : ok(KLINES)));
  const started = Date.now();
  await poller.pollOnce();
  expect(sentAfter(418)).toBe(0);
  expect(poller.stats().notBefore!).toBeGreaterThanOrEqual(started + 600_000);
});

it('a 503 with Retry-After: the retry within the poll is not sent, and the next poll waits', async () => {
  const { poller, server } = await binancePoller(
    () => ok(KLINES),
    () => ({ status: 503, body: 'maintenance', headers: { 'retry-after': '30' } }),
  );
  const started = Date.now();
  await poller.pollOnce();
  expect(server.requests).toHaveLength(1);
  expect(poller.stats().failed).toBe(1);
  expect(poller.stats().notBefore!).toBeGreaterThanOrEqual(started + 30_000 - 1_000);
});

it('a hung upstream, one request a poll: five timeouts open the circuit and nothing more is sent', async () => {
  const { poller, server } = await binancePoller(
    () => ok(KLINES),
    () => ({ fault: 'hang' }),
    200,
  );
  await poller.pollOnce(); // three attempts, three timeouts
  expect(server.requests).toHaveLength(3);
  expect(poller.stats().circuit).toBe('closed');
  await poller.pollOnce(); // two more timeouts open it; the third attempt is refused unsent
  expect(server.requests).toHaveLength(5);
  expect(poller.stats().circuit).toBe('open');
  await poller.pollOnce();
  expect(server.requests).toHaveLength(5);
  expect(poller.stats().failures).toEqual({ timeout: 1, circuit_open: 2 });
});

it('a hung upstream, fifty requests a poll: the circuit opens after five failed requests within the poll', async () => {
  const { poller, server } = await binancePoller(
    () => ({ fault: 'hang' }),
    () => ok(TICKERS),
    200,
  );
  await poller.pollOnce();
  expect(poller.stats().circuit).toBe('open');
  const klines = server.requests.filter((u) => u.pathname === '/api/v3/klines');
  // Five failures, plus at most three requests that were already on their way beside the fifth: never fifty.
  expect(klines.length).toBeGreaterThanOrEqual(5);
  expect(klines.length).toBeLessThanOrEqual(8);
  const before = server.requests.length;
  await poller.pollOnce();
  expect(server.requests).toHaveLength(before);
});

it.each<[string, Connector, string, Buffer]>([
  ["Kraken's EAPI:Rate limit exceeded", createKrakenConnector(['XBTUSD']), '/0/public/OHLC', ownFixture('kraken/error_rate_limit_exceeded.json')],
  ["Stooq's daily hits limit", createStocksConnector(['AAPL', 'MSFT', 'NVDA', 'TSLA', 'AMZN']), '/q/d/l/', ownFixture('stocks/hits_limit.txt')],
])('a rate limit written in a 200 body (%s) holds the source like a 429', async (_name, connector, path, body) => {
  server = await startUpstreamServer([{ path, reply: { body, contentType: 'text/plain' } }]);
  const poller = createPoller({
    connector,
    http: createUpstreamHttp({ source: connector.source, baseUrl: server.baseUrl, timeoutMs: 2_000 }),
    sink: async () => undefined,
    pollMs: 30_000,
    logger: pino({ level: 'silent' }),
    now: () => Date.UTC(2026, 10, 23, 6, 0),
    retryDelayMs: 10,
  });
  const started = Date.now();
  await poller.pollOnce();
  // Five requests a poll, two or three at a time: only those already on their way beside the first answer went out.
  expect(server.requests.length).toBeLessThanOrEqual(3);
  expect(poller.stats().failures).toEqual({ rate_limited: 1 });
  expect(poller.stats().notBefore!).toBeGreaterThanOrEqual(started + 60_000);
});
