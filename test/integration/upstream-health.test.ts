/**
 * What an operator sees of an upstream through the service: /ready tells a feed never polled
 * (`pending`) from one failing (with its last error, host included) and data never received
 * (`no data yet`) from data gone `stale`; a hung upstream shows `circuit_open` on /ready and
 * /metrics within five failed requests, one that asked us to wait shows `rate_limited` and how
 * long, and the items a connector leaves out are counted by reason.
 */
import { freePort } from '../support/ports.js';
import { within } from '../support/wait.js';
import { ownFixture, recordedFixture } from '../support/upstream-fixtures.js';
import { startUpstreamServer, type UpstreamServer } from '../support/upstream-server.js';
import { startTestService, TestClock, type TestService, closeAll } from '../support/service.js';

let upstream: UpstreamServer | undefined;
let t: TestService | undefined;
afterEach(async () => {
  await closeAll(t, upstream);
  t = upstream = undefined;
});

const metricValue = (text: string, line: RegExp): number | undefined => {
  const match = text.split('\n').find((l) => line.test(l));
  return match === undefined ? undefined : Number(match.split(' ').at(-1));
};

it('a hung upstream: /ready says circuit_open and /metrics counts it after five timed-out requests, none sent after', async () => {
  upstream = await startUpstreamServer([{ path: '/api/v3/ticker/24hr', reply: { fault: 'hang' } }]);
  t = await startTestService({
    clock: new TestClock(Date.parse('2026-11-23T06:00:00Z')),
    env: { FEEDS: 'binance', BINANCE_BASE_URL: upstream.baseUrl, BINANCE_POLL_MS: '3600000', UPSTREAM_TIMEOUT_MS: '200' },
  });
  // Three attempts a poll: the fifth timeout opens the circuit. Start-up's own first poll runs beside
  // ours, so one more request may have been on its way when the fifth failed.
  await t.service.liveFeeds.pollAll();
  await t.service.liveFeeds.pollAll();
  await t.service.liveFeeds.pollAll();
  const sent = upstream.requests.length;
  expect(sent).toBeGreaterThanOrEqual(5);
  expect(sent).toBeLessThanOrEqual(6);

  const ready = await t.a.get('/ready');
  expect(ready.body.checks.feed_binance).toBe('circuit_open');
  const metrics = (await t.b.get('/metrics')).text;
  expect(metricValue(metrics, /^mgw_upstream_circuit_open\{source="binance"\}/)).toBe(1);
  expect(metricValue(metrics, /^mgw_upstream_failures\{source="binance",kind="circuit_open"\}/)).toBeGreaterThanOrEqual(1);

  await t.service.liveFeeds.pollAll();
  expect(upstream.requests).toHaveLength(sent);
});

it('an upstream that answered 429 with Retry-After: /ready says rate_limited, /metrics how long, and no request goes out meanwhile', async () => {
  upstream = await startUpstreamServer([{ path: '/v0/markets', reply: { status: 429, body: '{"message":"slow down"}', headers: { 'retry-after': '900' } } }]);
  t = await startTestService({
    clock: new TestClock(Date.parse('2026-01-31T18:10:00Z')),
    env: { FEEDS: 'manifold', MANIFOLD_BASE_URL: upstream.baseUrl, MANIFOLD_POLL_MS: '3600000', UPSTREAM_PAGE_GAP_MS: '0' },
  });
  await t.service.liveFeeds.pollAll();
  const sent = upstream.requests.length;
  expect(sent).toBeGreaterThanOrEqual(1);
  await t.service.liveFeeds.pollAll();
  expect(upstream.requests).toHaveLength(sent);

  expect((await t.a.get('/ready')).body.checks.feed_manifold).toBe('rate_limited');
  const held = metricValue((await t.a.get('/metrics')).text, /^mgw_upstream_held_seconds\{source="manifold"\}/);
  expect(held).toBeGreaterThan(800);
  expect(held).toBeLessThanOrEqual(900);
});

it('items left out on purpose are counted by source and reason on /metrics', async () => {
  // The legacy Kalshi excerpt: never-traded markets with a one-sided quote at most, and inactive ones.
  const markets = JSON.parse(recordedFixture('kalshi/markets_legacy_excerpt_2025-10-31.json').toString()) as { status: string }[];
  upstream = await startUpstreamServer([{ path: '/trade-api/v2/markets', reply: { body: JSON.stringify({ markets, cursor: '' }) } }]);
  t = await startTestService({
    clock: new TestClock(Date.parse('2025-10-31T12:00:00Z')),
    env: { FEEDS: 'kalshi', KALSHI_BASE_URL: upstream.baseUrl, KALSHI_POLL_MS: '3600000', UPSTREAM_PAGE_GAP_MS: '0' },
  });
  await t.service.liveFeeds.pollAll();
  const { skippedItems, succeeded } = t.service.liveFeeds.stats()[0]!;
  expect(succeeded).toBeGreaterThanOrEqual(1);
  const metrics = (await t.a.get('/metrics')).text;
  const closed = markets.filter((m) => m.status !== 'active' && m.status !== 'open').length;
  expect(closed).toBeGreaterThan(0);
  expect(metricValue(metrics, /^mgw_upstream_skipped_items\{source="kalshi",reason="closed"\}/)).toBe(skippedItems.closed);
  expect(metricValue(metrics, /^mgw_upstream_skipped_items\{source="kalshi",reason="unpriced"\}/)).toBe(skippedItems.unpriced);
  // Counted over every poll since start (start-up's and ours): a whole multiple of one poll's count.
  expect(skippedItems.closed! % closed).toBe(0);
  expect(skippedItems.unpriced).toBeGreaterThan(0);
});

it('an upstream that never answered: the feed is pending, then failing with the host named; the data is "no data yet", and the log does not claim to serve any', async () => {
  const port = await freePort(); // nothing listens there
  const lines: string[] = [];
  t = await startTestService({
    clock: new TestClock(Date.parse('2026-11-23T06:00:00Z')),
    env: { FEEDS: 'binance', BINANCE_BASE_URL: `http://127.0.0.1:${port}`, BINANCE_POLL_MS: '3600000', LOG_LEVEL: 'warn' },
    logSink: { write: (line) => void lines.push(line) },
  });
  // Start-up's own first poll: three refused attempts (not yet the five that open the circuit).
  await within(20_000, () => t!.service.liveFeeds.stats()[0]!.lastOutcome !== null);
  const ready = await t.a.get('/ready');
  expect(ready.status).toBe(503);
  expect(ready.body.checks).toMatchObject({ data: 'no data yet', feed_binance: 'failing' });
  expect(ready.body.feeds.binance).toMatchObject({ state: 'failing', lastSuccessAt: null });
  expect(ready.body.feeds.binance.lastError).toContain(`127.0.0.1:${port}`);
  expect(ready.body.feeds.binance.lastError).toContain('ECONNREFUSED');
  const failures = lines.filter((l) => l.includes('upstream poll failed'));
  expect(failures.length).toBeGreaterThan(0);
  for (const line of failures) expect(line).not.toMatch(/serving/);
});

it('a feed whose first poll has not ended is pending', async () => {
  upstream = await startUpstreamServer([{ path: '/api/v3/ticker/24hr', reply: { fault: 'hang' } }]);
  t = await startTestService({
    clock: new TestClock(Date.parse('2026-11-23T06:00:00Z')),
    env: { FEEDS: 'binance', BINANCE_BASE_URL: upstream.baseUrl, BINANCE_POLL_MS: '3600000', UPSTREAM_TIMEOUT_MS: '120000' },
  });
  const ready = await t.a.get('/ready');
  expect(ready.body.checks.feed_binance).toBe('pending');
  expect(ready.body.feeds.binance).toEqual({ state: 'pending', lastSuccessAt: null, lastError: null });
});

it('data that was received and went stale is "stale", and a feed that then fails says so with its last success', async () => {
  upstream = await startUpstreamServer([{ path: '/0/public/OHLC', reply: { body: ownFixture('kraken/ohlc_small.json') } }]);
  const clock = new TestClock(1795386900_000 + 60_000);
  t = await startTestService({ clock, env: { FEEDS: 'kraken', KRAKEN_BASE_URL: upstream.baseUrl, KRAKEN_POLL_MS: '3600000' } });
  await t.service.liveFeeds.pollAll();
  expect((await t.a.get('/ready')).body.checks).toMatchObject({ data: 'fresh', feed_kraken: 'ok' });

  upstream.setRoutes([{ path: '/0/public/OHLC', reply: { status: 400, body: '{"error":["EQuery:Unknown asset pair"]}' } }]);
  clock.advance(6 * 60_000); // past crypto's 5-minute staleness bound
  await t.service.liveFeeds.pollAll();
  const ready = await t.a.get('/ready');
  expect(ready.status).toBe(503);
  expect(ready.body.checks).toMatchObject({ data: 'stale', feed_kraken: 'failing' });
  expect(ready.body.feeds.kraken.lastSuccessAt).toBe(new Date(1795386900_000 + 60_000).toISOString());
  expect(ready.body.feeds.kraken.lastError).toMatch(/kraken: HTTP 400/);
});
