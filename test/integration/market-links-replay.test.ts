/**
 * Market links from live venues: Kalshi's and Polymarket's real recorded market objects (this
 * repository's excerpts) carrying the texts of real cross-venue pairs (../shared/links, copied here
 * trimmed), served on loopback to the real connectors. The running gateway judges them as they
 * arrive: the verdict in PredictionMarket.links, a group in predictionEvents, a price claim under
 * assetMarket(symbol: "BTC/USD") { predictionMarkets }.
 */
import { recordedFixture } from '../support/upstream-fixtures.js';
import { startUpstreamServer, type UpstreamServer } from '../support/upstream-server.js';
import { closeAll, startTestService, TestClock, type TestService } from '../support/service.js';
import { graphqlData } from '../support/graphql-call.js';

const kalshiTemplate = (JSON.parse(recordedFixture('kalshi/markets_legacy_excerpt_2025-10-31.json').toString()) as Record<string, unknown>[])[0]!;
const gammaTemplate = (JSON.parse(recordedFixture('polymarket/gamma_markets_excerpt_2026-01-31.json').toString()) as Record<string, unknown>[])[0]!;

/** A recorded Kalshi market carrying another market's texts, open and priced (both schemas' fields). */
const kalshi = <F extends Record<string, unknown>>(fields: F, cents: number) => ({
  ...kalshiTemplate,
  status: 'active',
  last_price: cents,
  last_price_dollars: (cents / 100).toFixed(4),
  previous_price: cents,
  previous_price_dollars: (cents / 100).toFixed(4),
  yes_bid: cents - 1,
  yes_bid_dollars: ((cents - 1) / 100).toFixed(4),
  yes_ask: cents + 1,
  yes_ask_dollars: ((cents + 1) / 100).toFixed(4),
  volume_24h: 40_000,
  volume_24h_fp: '40000.00',
  rules_secondary: '',
  strike_type: 'custom',
  floor_strike: null as number | null,
  cap_strike: null as number | null,
  ...fields,
});

/** A recorded Gamma market carrying another market's texts. */
const gamma = <F extends Record<string, unknown>>(fields: F, price: number) => ({
  ...gammaTemplate,
  outcomes: '["Yes", "No"]',
  outcomePrices: JSON.stringify([String(price), String(1 - price)]),
  volume24hr: 60_000,
  resolutionSource: '',
  events: [],
  ...fields,
});

// The texts of two real pairs (../shared/links/pairs-dev.jsonl): Kalshi and Polymarket on one player's
// passing yards, and on Bitcoin's price at one instant.
const STROUD_K = kalshi(
  {
    ticker: 'KXNFLPASSYDS-26SEP13BUFHOU-HOUCSTROUD7-150',
    event_ticker: 'KXNFLPASSYDS-26SEP13BUFHOU',
    title: 'C.J. Stroud: 150+ passing yards',
    yes_sub_title: 'C.J. Stroud: 150+',
    rules_primary:
      'If C.J. Stroud records 150+ passing yards in the Buffalo vs Houston Pro Football game originally scheduled for Sep 13, 2026, then the market resolves to Yes.',
    rules_secondary:
      'The following market refers to C.J. Stroud in the Buffalo vs Houston Pro Football game originally scheduled for Sep 13, 2026. If C.J. Stroud is active but never takes a snap, the market settles to the fair market price before game start. Once C.J. Stroud takes at least one snap, even if nullified by penalty, the market settles based on passing yards recorded.',
    close_time: '2026-09-13T20:00:00Z',
    expiration_time: '2026-09-13T20:00:00Z',
  },
  82,
);
const STROUD_P = gamma(
  {
    id: '930001',
    slug: 'astatc-nfl-buf-hou-2026-09-13-pyd-cstr-gte150',
    question: 'C.J. Stroud · Will C.J. Stroud record 150+ passing yards?',
    description:
      'This market will settle to Yes if C.J. Stroud records at least 150 passing yards in the Buffalo Bills vs Houston Texans professional football game scheduled for Sep 13, 2026. Overtime is included if played. The listed player must participate in the game by taking at least one snap on offense, defense, or special teams, with a snap nullified by penalty counting; otherwise, the market will settle to the last fair market price. The market will settle based on the official box score at the conclusion of the game. For purposes of this market, stat corrections enforced after the game has been completed will not count. If the game is delayed, postponed, or suspended and not rescheduled to a date within two days of the originally scheduled date, the market will settle to the last fair market price. Outcome sourced from the relevant governing body.',
    endDate: '2026-09-27T17:00:00Z',
  },
  0.78,
);
const BTC_K = kalshi(
  {
    ticker: 'KXBTCD-26MAY1204-T82399.99',
    event_ticker: 'KXBTCD-26MAY1204',
    title: 'Bitcoin price on May 12, 2026 at 4am EDT? — $82,400 or above',
    yes_sub_title: '$82,400 or above',
    rules_primary: '',
    strike_type: 'greater',
    floor_strike: 82_399.99,
    close_time: '2026-05-12T08:00:00Z',
    expiration_time: '2026-05-12T08:00:00Z',
  },
  40,
);
const BTC_P = gamma(
  {
    id: '2238873',
    slug: 'bitcoin-above-82400-on-may-12-4am-et',
    question: 'Bitcoin above 82,400 on May 12, 4AM ET?',
    description: '',
    endDate: '2026-05-12T08:00:00Z',
  },
  0.44,
);

let upstream: UpstreamServer | undefined;
let t: TestService | undefined;
let key = '';

beforeAll(async () => {
  upstream = await startUpstreamServer([
    { path: '/trade-api/v2/markets', reply: { body: JSON.stringify({ markets: [STROUD_K, BTC_K], cursor: '' }) } },
    { path: '/markets', reply: { body: JSON.stringify([STROUD_P, BTC_P]) } },
  ]);
  t = await startTestService({
    clock: new TestClock(Date.parse('2026-05-10T12:00:00Z')),
    env: {
      FEEDS: 'demo,kalshi,polymarket',
      KALSHI_BASE_URL: upstream.baseUrl,
      POLYMARKET_BASE_URL: upstream.baseUrl,
      KALSHI_POLL_MS: '3600000',
      POLYMARKET_POLL_MS: '3600000',
      UPSTREAM_PAGE_GAP_MS: '0',
    },
  });
  await t.service.liveFeeds.pollAll();
  await t.service.linker.settled();
  ({ key } = await t.createKey('pro', 'pro'));
});
afterAll(() => closeAll(t, upstream));

const gql = <T>(query: string): Promise<T> => graphqlData<T>(t!.b, key, query);

it("shows the judge's verdict on a pair of the two venues in PredictionMarket.links", async () => {
  const { predictionMarket } = await gql<{
    predictionMarket: { links: { relation: string; decidedBy: string; market: { id: string }; basisRisk: string[] }[] };
  }>(`{ predictionMarket(id: "kalshi:${STROUD_K.ticker}") { links { relation decidedBy market { id } basisRisk } } }`);
  expect(predictionMarket.links).toEqual([expect.objectContaining({ relation: 'SAME', decidedBy: 'RULES', market: { id: 'polymarket:930001' } })]);
});

it('groups the pair in predictionEvents with its consensus and spread', async () => {
  const { predictionEvents } = await gql<{
    predictionEvents: { consensus: number; spreadPts: number; markets: { id: string; probability: number; volume24h: number }[] }[];
  }>('{ predictionEvents { consensus spreadPts markets { id probability volume24h } } }');
  const stroud = predictionEvents.find((e) => e.markets.some((m) => m.id === `kalshi:${STROUD_K.ticker}`))!;
  expect(stroud.markets.map((m) => m.id).sort()).toEqual(['kalshi:KXNFLPASSYDS-26SEP13BUFHOU-HOUCSTROUD7-150', 'polymarket:930001']);
  const [x, y] = stroud.markets;
  expect(stroud.consensus).toBeCloseTo((x!.probability * x!.volume24h + y!.probability * y!.volume24h) / (x!.volume24h + y!.volume24h), 3);
  expect(stroud.spreadPts).toBeCloseTo(4, 1);
});

it("links both venues' Bitcoin markets to BTC/USD through their price claims", async () => {
  const { assetMarket } = await gql<{
    assetMarket: { predictionMarkets: { id: string; claim: { comparator: string; threshold: number; kind: string; until: string } }[] };
  }>('{ assetMarket(symbol: "BTC/USD") { predictionMarkets { id claim { comparator threshold kind until } } } }');
  const byId = new Map(assetMarket.predictionMarkets.map((m) => [m.id, m.claim]));
  // Kalshi's strike (greater than 82,399.99, in cents) is its title's "$82,400 or above".
  expect(byId.get(`kalshi:${BTC_K.ticker}`)).toEqual({ comparator: 'AT_OR_ABOVE', threshold: 82_400, kind: 'AT', until: '2026-05-12T08:00:00.000Z' });
  expect(byId.get('polymarket:2238873')).toMatchObject({ comparator: 'ABOVE', threshold: 82_400, kind: 'AT', until: '2026-05-12T08:00:00.000Z' });
  const { predictionMarket } = await gql<{ predictionMarket: { links: { relation: string; market: { id: string }; basisRisk: string[] }[] } }>(
    `{ predictionMarket(id: "kalshi:${BTC_K.ticker}") { links { relation market { id } basisRisk } } }`,
  );
  // The same instant and threshold; exactly at 82,400 the two read the comparator differently: basis risk.
  expect(predictionMarket.links).toEqual([expect.objectContaining({ relation: 'SAME', market: { id: 'polymarket:2238873' } })]);
  expect(predictionMarket.links[0]!.basisRisk.length).toBeGreaterThan(0);
});
