/**
 * Live feeds through the whole service: real recorded payloads served from a loopback upstream to
 * the real connectors (only the base URL differs from production), ingested, detected and answered
 * by the REST facades; upstream faults never reach a client.
 */
import { ownFixture } from '../support/upstream-fixtures.js';
import { startUpstreamServer, type UpstreamServer } from '../support/upstream-server.js';
import { bearer, startTestService, TestClock, type TestService, closeAll } from '../support/service.js';

let upstream: UpstreamServer | undefined;
let t: TestService | undefined;
afterEach(async () => {
  await closeAll(t, upstream);
  t = upstream = undefined;
});

async function polymarketService(clock: TestClock, firstBody: Buffer | string) {
  upstream = await startUpstreamServer([{ path: '/markets', reply: { body: firstBody } }]);
  t = await startTestService({
    clock,
    env: { FEEDS: 'polymarket', POLYMARKET_BASE_URL: upstream.baseUrl, POLYMARKET_POLL_MS: '3600000', UPSTREAM_PAGE_GAP_MS: '0', UPSTREAM_TIMEOUT_MS: '500' },
  });
  const { key } = await t.createKey('free', 'pro');
  return { t, upstream, key };
}

it('an upstream that fails after a good poll: clients keep getting the last good data with a 200', async () => {
  const good = JSON.stringify([
    { id: '1', question: 'Will it rain?', slug: 'rain', outcomePrices: '["0.4","0.6"]', volume24hr: 1200, active: true, closed: false },
    { id: '2', question: 'Will it snow?', slug: 'snow', outcomePrices: '["0.1","0.9"]', volume24hr: 800, active: true, closed: false },
  ]);
  const clock = new TestClock(Date.parse('2026-11-23T06:00:00Z'));
  const { t, upstream, key } = await polymarketService(clock, good);
  await t.service.liveFeeds.pollAll();
  const before = (await t.b.get('/api/v1/markets').set(bearer(key))).body;
  expect(before.markets.map((m: { question: string }) => m.question)).toEqual(['Will it rain?', 'Will it snow?']);

  for (const reply of [
    { status: 500, body: 'internal error' },
    { body: '<html>maintenance</html>', contentType: 'text/html' },
    { body: '{"unexpected": true}' },
    { fault: 'hang' as const },
  ]) {
    upstream.setRoutes([{ path: '/markets', reply }]);
    const started = Date.now();
    await t.service.liveFeeds.pollAll();
    expect(Date.now() - started).toBeLessThan(5_000);
    const res = await t.b.get('/api/v1/markets').set(bearer(key));
    expect(res.status).toBe(200);
    expect(res.body).toEqual(before);
  }
  const [stats] = t.service.liveFeeds.stats();
  // Start-up polled once too, so at least one success; then exactly the four faults, each counted by kind.
  expect(stats!.succeeded).toBeGreaterThanOrEqual(1);
  expect(stats!.failed).toBe(4);
  expect(Object.values(stats!.failures).reduce((a, b) => a + b, 0)).toBe(4);
  const metrics = (await t.a.get('/metrics')).text;
  expect(metrics).toMatch(/^mgw_upstream_polls\{source="polymarket",outcome="failed"\} 4$/m);
  expect(metrics).toMatch(/^mgw_upstream_seconds_since_success\{source="polymarket"\} \d/m);
  const ready = await t.b.get('/ready');
  expect(ready.body.checks.feed_polymarket).toMatch(/ok|circuit_open/);
});

it('demo and a live market-data source together: the live source owns its symbols, the demo keeps the rest', async () => {
  upstream = await startUpstreamServer([{ path: '/0/public/OHLC', reply: { body: ownFixture('kraken/ohlc_small.json') } }]);
  const clock = new TestClock(1795386900_000 + 60_000);
  t = await startTestService({ clock, env: { FEEDS: 'demo,kraken', KRAKEN_BASE_URL: upstream.baseUrl, KRAKEN_POLL_MS: '3600000' } });
  await t.service.liveFeeds.pollAll();
  const { key } = await t.createKey('enterprise');
  const res = await t.a.get('/api/v1/markets?type=crypto&limit=100').set(bearer(key));
  expect(res.status).toBe(200);
  const bySymbol = new Map(res.body.data.map((m: { symbol: string }) => [m.symbol, m]));
  expect(bySymbol.get('BTC/USD')).toMatchObject({ price: 97200, status: 'active' });
  expect(bySymbol.get('ATOM/USD')).toMatchObject({ status: 'active' }); // demo only
  const stored = await t.service.store.markets.listMarkets();
  expect(stored.find((m) => m.symbol === 'BTC/USD')!.source).toBe('kraken');
  expect(stored.find((m) => m.symbol === 'ATOM/USD')!.source).toBe('demo');

  // The upstream goes quiet: past its staleness bound (5 minutes for crypto) the market is inactive (D7).
  upstream.setRoutes([{ path: '/0/public/OHLC', reply: { status: 500, body: 'down' } }]);
  clock.advance(6 * 60_000);
  await t.service.liveFeeds.pollAll();
  const stale = await t.a.get('/api/v1/markets?type=crypto&limit=100').set(bearer(key));
  expect(stale.body.data.find((m: { symbol: string }) => m.symbol === 'BTC/USD')).toMatchObject({ price: 97200, status: 'inactive' });
});

it('a brief asked before the first data arrives is not frozen for the day', async () => {
  const clock = new TestClock(Date.parse('2026-11-23T07:00:00Z'));
  const { t, upstream, key } = await polymarketService(clock, '[]');
  await t.service.liveFeeds.pollAll();
  const early = (await t.b.get('/api/v1/brief').set(bearer(key))).body;
  expect(early.brief).toContain('No prediction market has traded');
  expect(await t.service.store.prediction.getBrief('2026-11-23')).toBeUndefined();

  upstream.setRoutes([
    {
      path: '/markets',
      reply: { body: JSON.stringify([{ id: '7', question: 'Will data arrive?', slug: 'data', outcomePrices: '["0.7","0.3"]', volume24hr: 100 }]) },
    },
  ]);
  await t.service.liveFeeds.pollAll();
  clock.advance(60_000);
  const real = (await t.b.get('/api/v1/brief').set(bearer(key))).body;
  expect(real.brief).toContain('Will data arrive? 70%');
  expect(real.generated_at).toBe('2026-11-23T07:01:00.000Z');
  clock.advance(60_000);
  expect((await t.b.get('/api/v1/brief').set(bearer(key))).body).toEqual(real);
});

it('volumes past 2^31 are served exactly, and a market no feed reports for a day leaves the list', async () => {
  const huge = JSON.stringify([
    { id: '1', question: 'Will volumes overflow 32 bits?', slug: 'big', outcomePrices: '["0.5","0.5"]', volume24hr: 3_000_000_000 },
    { id: '2', question: 'Will a small market stay?', slug: 'small', outcomePrices: '["0.2","0.8"]', volume24hr: 10 },
  ]);
  const clock = new TestClock(Date.parse('2026-11-23T06:00:00Z'));
  const { t, upstream, key } = await polymarketService(clock, huge);
  await t.service.liveFeeds.pollAll();
  const listed = (await t.b.get('/api/v1/markets').set(bearer(key))).body;
  expect(listed.markets.map((m: { volume_24h: number }) => m.volume_24h)).toEqual([3_000_000_000, 10]);
  const gql = await t.b.post('/graphql').set(bearer(key)).send({ query: '{ predictionMarkets(limit: 1) { items { volume24h } } }' });
  expect(gql.body.data.predictionMarkets.items[0].volume24h).toBe(3_000_000_000);

  // The big market closes: the upstream stops listing it; a day and more later it is gone from the top.
  upstream.setRoutes([{ path: '/markets', reply: { body: JSON.stringify([JSON.parse(huge)[1]]) } }]);
  clock.advance(27 * 3_600_000);
  await t.service.liveFeeds.pollAll();
  const later = (await t.b.get('/api/v1/markets').set(bearer(key))).body;
  expect(later.markets.map((m: { question: string }) => m.question)).toEqual(['Will a small market stay?']);
});
