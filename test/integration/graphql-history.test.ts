/**
 * History for charts on /graphql: candles of asset markets and the hourly chart of prediction
 * markets, paged and bounded, batched into one store call however many markets ask, and plan-gated
 * like their parents. Answers are compared with what the store holds.
 */
import { GraphQLClient } from 'graphql-request';
import { bearer, startTestService, type TestService } from '../support/service.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t?.close());

const client = (key: string, base = t.urls.a) => new GraphQLClient(`${base}/graphql`, { headers: bearer(key) });

interface CandleAnswer {
  openTime: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

async function errorCode(request: Promise<unknown>): Promise<unknown> {
  const error = await request.then(
    () => undefined,
    (e: { response?: { errors?: { extensions?: { code?: unknown } }[] } }) => e,
  );
  return error?.response?.errors?.[0]?.extensions?.code;
}

it('candles: a page of the latest, oldest first, as the store holds them; paging back with before', async () => {
  const { key } = await t.createKey('free');
  const query =
    'query($before: DateTime) { assetMarket(symbol: "btc/usd") { candles(interval: H1, limit: 100, before: $before) { openTime open high low close volume } } }';
  const first = ((await client(key).request(query)) as { assetMarket: { candles: CandleAnswer[] } }).assetMarket.candles;
  const stored = await t.service.store.markets.recentCandles('BTC/USD', '1h', 500);
  expect(stored.length).toBeGreaterThan(100);
  expect(first).toHaveLength(100);
  expect(first.map((c) => Date.parse(c.openTime))).toEqual(stored.slice(-100).map((c) => c.openTime));
  expect(first.at(-1)!.close).toBeCloseTo(stored.at(-1)!.close, 2);

  const second = ((await client(key).request(query, { before: first[0]!.openTime })) as { assetMarket: { candles: CandleAnswer[] } }).assetMarket.candles;
  expect(second.map((c) => Date.parse(c.openTime))).toEqual(stored.slice(-200, -100).map((c) => c.openTime));
  for (const c of [...first, ...second]) {
    expect(c.low).toBeLessThanOrEqual(Math.min(c.open, c.close));
    expect(c.high).toBeGreaterThanOrEqual(Math.max(c.open, c.close));
  }
});

it('candles for many markets in one operation are one store call; the operation is bounded', async () => {
  const { key } = await t.createKey('pro');
  const markets = t.service.store.markets;
  const original = markets.candlePages;
  let calls = 0;
  markets.candlePages = (...args) => {
    calls++;
    return original(...args);
  };
  try {
    const answer = (await client(key).request('{ assetMarkets(limit: 20) { items { symbol candles(interval: M5, limit: 10) { close } } } }')) as {
      assetMarkets: { items: { symbol: string; candles: unknown[] }[] };
    };
    expect(answer.assetMarkets.items).toHaveLength(20);
    expect(calls).toBe(1);
    for (const m of answer.assetMarkets.items) {
      expect(m.candles).toHaveLength((await original([m.symbol], '5m', 10, null)).get(m.symbol)!.length);
    }
    expect(answer.assetMarkets.items.filter((m) => m.candles.length === 10).length).toBeGreaterThan(0);
  } finally {
    markets.candlePages = original;
  }
  // Every market, every interval, 500 each: more than 20 000 candles.
  const total = (await t.service.store.markets.listMarkets()).length * 5 * 500;
  expect(total).toBeGreaterThan(20_000);
  const everything = `{ assetMarkets(limit: 500) { items { ${['M5', 'M15', 'H1', 'H4', 'D1'].map((i) => `${i.toLowerCase()}: candles(interval: ${i}, limit: 500) { close }`).join(' ')} } } }`;
  expect(await errorCode(client(key).request(everything))).toBe('BAD_USER_INPUT');
  expect(await errorCode(client(key).request('{ assetMarket(symbol: "BTC/USD") { candles(limit: 501) { close } } }'))).toBe('BAD_USER_INPUT');
});

it('prediction history: the hourly chart the store holds, Pro only, hours bounded', async () => {
  const { key } = await t.createKey('free', 'pro');
  const answer = (await client(key, t.urls.b).request(
    '{ predictionMarkets(limit: 3) { items { id history(hours: 24) { time probability volume24h } } } }',
  )) as {
    predictionMarkets: { items: { id: string; history: { time: string; probability: number; volume24h: number | null }[] }[] };
  };
  const hourNow = Math.floor(t.clock.now() / 3_600_000) * 3_600_000;
  const stored = await t.service.store.prediction.chartHistory(
    answer.predictionMarkets.items.map((m) => m.id),
    hourNow - 23 * 3_600_000,
  );
  for (const market of answer.predictionMarkets.items) {
    const points = stored.get(market.id)!;
    expect(points.length).toBeGreaterThan(0);
    expect(market.history.map((p) => Date.parse(p.time))).toEqual(points.map((p) => p.hourStart));
    expect(market.history.map((p) => p.probability)).toEqual(points.map((p) => Math.round(p.prob * 10_000) / 10_000));
    expect(market.history.every((p) => Date.parse(p.time) >= hourNow - 23 * 3_600_000)).toBe(true);
  }

  const { key: noPrediction } = await t.createKey('enterprise', 'none');
  expect(await errorCode(client(noPrediction, t.urls.b).request('{ predictionMarkets(limit: 1) { items { history { time } } } }'))).toBe('FORBIDDEN');
  for (const hours of [0, 73]) {
    expect(await errorCode(client(key, t.urls.b).request(`{ predictionMarkets(limit: 1) { items { history(hours: ${hours}) { time } } } }`))).toBe(
      'BAD_USER_INPUT',
    );
  }
});
