/**
 * Ranking truth through the whole service: a market that a source's complete answer no longer
 * holds leaves B /markets and GraphQL's ranking at once, its alerts stay, and GraphQL marks it
 * inactive; an answer cut short by a rate limit unranks nothing. Hand-made Gamma answers, served
 * by a loopback upstream to the real connector.
 */
import { bearer, startTestService, TestClock, type TestService, closeAll } from '../support/service.js';
import { startUpstreamServer, type UpstreamReply, type UpstreamServer } from '../support/upstream-server.js';

const T0 = Date.UTC(2026, 0, 31, 18, 0);
const MINUTE = 60_000;

/** A Gamma market: the most active first when the list is sorted by the caller. */
const gamma = (id: string, prob: number, volume24hr: number) => ({
  id,
  question: `Will market ${id} resolve YES?`,
  slug: `market-${id}`,
  outcomes: '["Yes", "No"]',
  outcomePrices: JSON.stringify([String(prob), String(1 - prob)]),
  volume24hr,
  active: true,
  closed: false,
});
const answer = (...markets: ReturnType<typeof gamma>[]): UpstreamReply => ({ body: JSON.stringify(markets) });

let upstream: UpstreamServer | undefined;
let t: TestService | undefined;
afterEach(async () => {
  await closeAll(t, upstream);
  t = upstream = undefined;
});

it('a market missing from the complete answer leaves the ranking, keeps its alert, and is inactive on GraphQL', async () => {
  upstream = await startUpstreamServer([{ path: '/markets', reply: answer(gamma('1', 0.3, 900), gamma('2', 0.4, 500)) }]);
  const clock = new TestClock(T0);
  t = await startTestService({
    clock,
    env: { FEEDS: 'polymarket', POLYMARKET_BASE_URL: upstream.baseUrl, POLYMARKET_POLL_MS: '3600000', UPSTREAM_PAGE_GAP_MS: '0' },
  });
  const { key } = await t.createKey('free', 'pro');
  const questions = async () => (await t!.b.get('/api/v1/markets').set(bearer(key))).body.markets.map((m: { question: string }) => m.question);

  await t.service.liveFeeds.pollAll();
  expect(await questions()).toEqual(['Will market 1 resolve YES?', 'Will market 2 resolve YES?']);

  // Market 2 jumps 10 points: an alert.
  clock.advance(MINUTE);
  upstream.setRoutes([{ path: '/markets', reply: answer(gamma('1', 0.3, 900), gamma('2', 0.5, 500)) }]);
  await t.service.liveFeeds.pollAll();

  // Market 2 leaves Gamma's answer (resolved, closed): it leaves the ranking at once, with its old volume.
  clock.advance(MINUTE);
  upstream.setRoutes([{ path: '/markets', reply: answer(gamma('1', 0.31, 100)) }]);
  await t.service.liveFeeds.pollAll();
  expect(await questions()).toEqual(['Will market 1 resolve YES?']);

  const alerts = (await t.b.get('/api/v1/alerts').set(bearer(key))).body;
  expect(alerts.alerts).toEqual([expect.objectContaining({ question: 'Will market 2 resolve YES?', old_pct: 40, new_pct: 50, delta_pts: 10 })]);

  const graphql = await t.b
    .post('/graphql')
    .set(bearer(key))
    .send({ query: '{ predictionMarkets { items { id active } } movementAlerts { items { question market { id active probability } } } }' });
  expect(graphql.body.errors).toBeUndefined();
  expect(graphql.body.data.predictionMarkets.items).toEqual([{ id: 'polymarket:1', active: true }]);
  expect(graphql.body.data.movementAlerts.items).toEqual([
    { question: 'Will market 2 resolve YES?', market: { id: 'polymarket:2', active: false, probability: 0.5 } },
  ]);

  // Back in a later answer: ranked again.
  clock.advance(MINUTE);
  upstream.setRoutes([{ path: '/markets', reply: answer(gamma('1', 0.31, 100), gamma('2', 0.52, 50)) }]);
  await t.service.liveFeeds.pollAll();
  expect(await questions()).toEqual(['Will market 1 resolve YES?', 'Will market 2 resolve YES?']);
});

it('an answer cut short by a rate limit after its first page unranks nothing it did not reach', async () => {
  const page = (from: number, count: number) => Array.from({ length: count }, (_, i) => gamma(String(from + i), 0.5, 10_000 - from - i));
  upstream = await startUpstreamServer([
    { path: '/markets', reply: (url) => answer(...page(Number(url.searchParams.get('offset')) + 1, url.searchParams.get('offset') === '0' ? 500 : 20)) },
  ]);
  const clock = new TestClock(T0);
  t = await startTestService({
    clock,
    env: { FEEDS: 'polymarket', POLYMARKET_BASE_URL: upstream.baseUrl, POLYMARKET_POLL_MS: '3600000', UPSTREAM_PAGE_GAP_MS: '0' },
  });
  await t.service.liveFeeds.pollAll();
  const ranked = () => t!.service.predictions.top(Number.MAX_SAFE_INTEGER, clock.now()).length;
  expect(ranked()).toBe(520);

  clock.advance(MINUTE);
  upstream.setRoutes([
    {
      path: '/markets',
      reply: (url) => (url.searchParams.get('offset') === '0' ? answer(...page(1, 500)) : { status: 429, body: '{}', headers: { 'retry-after': '1' } }),
    },
  ]);
  await t.service.liveFeeds.pollAll();
  // The 20 markets of the second page were not reached: still ranked on their last data.
  expect(ranked()).toBe(520);
});
