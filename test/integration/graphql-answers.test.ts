/**
 * Kept /graphql answers: an operation that reads only versioned data is answered from the cache
 * while its data's version holds (computed once for identical concurrent requests, 304 by ETag
 * before anything runs), recomputed once the data changes, and kept per account for the caller's
 * own data, so one account's answer is never another's. What has no version runs every time.
 */
import { operationId } from '../../src/graphql/catalogue/prepare.js';
import { executions } from '../support/graphql-paths.js';
import { writeQuote } from '../support/quotes.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { CREATE_PRICE_ALERT, priceAlertAbove } from '../support/graphql-call.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t?.close());

const post = (listener: 'a' | 'b', key: string, body: object) => t[listener].post('/graphql').set(bearer(key)).send(body);
const delta = async (listener: 'a' | 'b', run: () => Promise<unknown>) => {
  const before = await executions(t[listener]);
  await run();
  const after = await executions(t[listener]);
  return { executed: after.executed - before.executed, cached: after.cached - before.cached };
};

it('a GET of a persisted document by id answers from the kept answer, and If-None-Match is 304 with nothing executed', async () => {
  const { key } = await t.createKey('pro', 'pro');
  const query = '{ predictionMarkets(limit: 4) { count items { id probabilityPct } } }';
  const persistedQuery = { version: 1, sha256Hash: operationId(query) };
  const extensions = JSON.stringify({ persistedQuery });
  let etag = '';
  const counts = await delta('b', async () => {
    expect((await post('b', key, { query, extensions: { persistedQuery } })).status).toBe(200); // registers, computes, keeps
    const byId = await t.b.get(`/graphql?${new URLSearchParams({ extensions })}`).set(bearer(key));
    expect(byId.status).toBe(200);
    etag = byId.headers.etag!;
    const again = await t.b
      .get(`/graphql?${new URLSearchParams({ extensions })}`)
      .set(bearer(key))
      .set('If-None-Match', etag);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });
  expect(counts).toEqual({ executed: 1, cached: 2 });
});

it('ten identical requests sent together execute the operation once (overlap is not forced here: the single flight itself is tested in test/unit/response-cache.test.ts)', async () => {
  const { key } = await t.createKey('pro', 'pro');
  const body = { query: 'query Top($n: Int!) { predictionMarkets(limit: $n) { count items { id } } }', variables: { n: 7 } };
  const counts = await delta('b', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => post('b', key, body)));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
  });
  expect(counts).toEqual({ executed: 1, cached: 9 });
});

it('the same variables in another order are the same kept answer', async () => {
  const { key } = await t.createKey('pro', 'pro');
  const query = 'query Two($n: Int!, $m: Int!) { a: predictionMarkets(limit: $n) { count } b: predictionMarkets(limit: $m) { count } }';
  const counts = await delta('b', async () => {
    const first = await post('b', key, { query, variables: { n: 3, m: 4 } });
    const second = await post('b', key, { query, variables: { m: 4, n: 3 } });
    expect(second.text).toBe(first.text);
  });
  expect(counts).toEqual({ executed: 1, cached: 1 });
});

it('an answer is recomputed once the data it read changes', async () => {
  const { key } = await t.createKey('free');
  const query = '{ assetMarket(symbol: "ETH/USD") { price } }';
  const first = await post('a', key, { query });
  expect(first.body.data.assetMarket.price).toEqual(expect.any(Number));
  expect((await post('a', key, { query })).body).toEqual(first.body);
  await writeQuote(t.service, 'ETH/USD', 4_321.5, t.clock.now());
  expect((await post('a', key, { query })).body.data.assetMarket.price).toBe(4_321.5);
});

it("an account's own data is kept per account: the same query never answers one account with another's alerts", async () => {
  const [one, two] = [await t.createKey('pro'), await t.createKey('pro')];
  const create = (key: string, threshold: number) => post('a', key, { query: CREATE_PRICE_ALERT, variables: priceAlertAbove(threshold) });
  const oneId = (await create(one.key, 1e9)).body.data.createPriceAlert.id;
  const twoId = (await create(two.key, 2e9)).body.data.createPriceAlert.id;
  const mine = { query: '{ priceAlerts { items { id threshold market { symbol } } } }' };
  for (let round = 0; round < 2; round++) {
    expect((await post('a', one.key, mine)).body.data.priceAlerts.items.map((a: { id: string }) => a.id)).toEqual([oneId]);
    expect((await post('a', two.key, mine)).body.data.priceAlerts.items.map((a: { id: string }) => a.id)).toEqual([twoId]);
  }
  // A change on the account is seen at once (its alerts' version is in the key).
  const another = (await create(one.key, 3e9)).body.data.createPriceAlert.id;
  expect((await post('a', one.key, mine)).body.data.priceAlerts.items.map((a: { id: string }) => a.id).sort()).toEqual([oneId, another].sort());
});

it("two accounts asking in turn each keep their own answer: neither replaces the other's", async () => {
  const [one, two] = [await t.createKey('pro'), await t.createKey('pro')];
  // Only the account's alerts (no market fields, whose version moves with the demo feed's ticks).
  const mine = { query: '{ priceAlerts { items { id } } }' };
  await post('a', one.key, mine);
  await post('a', two.key, mine);
  const counts = await delta('a', async () => {
    for (let round = 0; round < 3; round++) {
      expect((await post('a', one.key, mine)).status).toBe(200);
      expect((await post('a', two.key, mine)).status).toBe(200);
    }
  });
  expect(counts).toEqual({ executed: 0, cached: 6 });
});

it('what has no version (the viewer) and answers with errors run every time', async () => {
  const { key } = await t.createKey('pro', 'pro');
  const counts = await delta('b', async () => {
    await post('b', key, { query: '{ viewer { name } }' });
    await post('b', key, { query: '{ viewer { name } }' });
    expect((await post('b', key, { query: '{ predictionMarkets(limit: 51) { count } }' })).body.errors).toBeDefined();
    expect((await post('b', key, { query: '{ predictionMarkets(limit: 51) { count } }' })).body.errors).toBeDefined();
  });
  expect(counts).toEqual({ executed: 4, cached: 0 });
});
