/**
 * Two instances on one PostgreSQL (and Redis): the one holding the jobs lease produces the events,
 * and subscribers on both instances receive them: quotes through the read models kept in step by
 * change notices, price alert events through their own notices. Kept /graphql answers follow the
 * same versions, so the other instance recomputes them as soon as it learns of a change.
 */
import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { createPgSchema, postgresAvailable } from '../support/engines.js';
import { redisAvailable, SHARED_REDIS_URL } from '../support/redis.js';
import { startTestService, type TestService } from '../support/service.js';
import { writeQuote } from '../support/quotes.js';
import { within } from '../support/wait.js';

const enabled = (await postgresAvailable()) && (await redisAvailable());
const maybe = enabled ? it : it.skip;

let schema: Awaited<ReturnType<typeof createPgSchema>>;
let leader: TestService;
let follower: TestService;
const clients: Client[] = [];

beforeAll(async () => {
  if (!enabled) return;
  schema = await createPgSchema();
  const env = { DATABASE_URL: schema.url, REDIS_URL: SHARED_REDIS_URL };
  leader = await startTestService({ env });
  await within(10_000, () => leader.service.runsJobs());
  follower = await startTestService({ env, role: 'http', clock: leader.clock });
}, 60_000);
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await follower?.close({ keepData: true });
  await leader?.close({ keepData: true });
  await schema?.drop();
});

function subscribe<T>(base: string, key: string, query: string) {
  const received: T[] = [];
  const client = createClient({
    url: `${base.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { Authorization: `Bearer ${key}` },
    retryAttempts: 0,
    onNonLazyError: () => undefined,
  });
  clients.push(client);
  client.subscribe<T>({ query }, { next: (v) => void received.push(v.data as T), error: () => undefined, complete: () => undefined });
  return received;
}

maybe('a price alert moved by the jobs reaches its account’s subscribers on both instances', async () => {
  const { key, accountId } = await leader.createKey('pro');
  const query = 'subscription { priceAlertEvents { type alert { id } } }';
  const onLeader = subscribe<{ priceAlertEvents: { type: string; alert: { id: string } } }>(leader.urls.a, key, query);
  const onFollower = subscribe<{ priceAlertEvents: { type: string; alert: { id: string } } }>(follower.urls.a, key, query);
  await new Promise((r) => setTimeout(r, 300)); // both subscriptions admitted
  const quote = leader.service.markets.quote('BTC/USD')!;
  const alert = await leader.service.store.priceAlerts.create({
    accountId,
    symbol: 'BTC/USD',
    kind: 'price_above',
    threshold: quote.price / 2,
    signal: null,
    expiresAt: null,
    now: leader.clock.now(),
  });
  leader.clock.advance(1_000);
  await leader.service.alerts.evaluate([{ ...quote, observedAt: leader.clock.now() }], leader.clock.now());
  await within(10_000, () => onLeader.length > 0 && onFollower.length > 0);
  for (const received of [onLeader, onFollower]) expect(received).toEqual([{ priceAlertEvents: { type: 'TRIGGERED', alert: { id: alert.id } } }]);
});

maybe('a quote written by the jobs reaches subscribers on the other instance', async () => {
  const { key } = await leader.createKey('free');
  const received = subscribe<{ quotes: { price: number } }>(follower.urls.a, key, 'subscription { quotes(symbols: ["ETH/USD"]) { price } }');
  await new Promise((r) => setTimeout(r, 300));
  leader.clock.advance(2_000);
  await writeQuote(leader.service, 'ETH/USD', 1_234.5, leader.clock.now());
  await within(10_000, () => received.some((r) => r.quotes.price === 1_234.5));
});

maybe("a kept /graphql answer on the other instance is recomputed once the jobs' instance changes the data, and an account's alerts too", async () => {
  const { key } = await leader.createKey('free');
  const ask = async (instance: TestService, query: string) =>
    (await instance.a.post('/graphql').set('Authorization', `Bearer ${key}`).send({ query })).body.data;
  const price = '{ assetMarket(symbol: "SOL/USD") { price } }';
  const before = await ask(follower, price);
  expect(await ask(follower, price)).toEqual(before); // kept
  await writeQuote(leader.service, 'SOL/USD', 77.25, leader.clock.now());
  await within(10_000, async () => (await ask(follower, price)).assetMarket.price === 77.25);

  const alerts = '{ priceAlerts { total } }';
  const pro = await leader.createKey('pro');
  const count = async (instance: TestService) =>
    (await instance.a.post('/graphql').set('Authorization', `Bearer ${pro.key}`).send({ query: alerts })).body.data.priceAlerts.total;
  expect(await count(follower)).toBe(0);
  await leader.service.store.priceAlerts.create({
    accountId: pro.accountId,
    symbol: 'SOL/USD',
    kind: 'price_above',
    threshold: 1e9,
    signal: null,
    expiresAt: null,
    now: leader.clock.now(),
  });
  await within(10_000, async () => (await count(follower)) === 1);
});
