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

maybe('price alerts moved by the jobs reach their account’s subscribers on both instances, another account’s never', async () => {
  const { key, accountId } = await leader.createKey('pro');
  const query = 'subscription { priceAlertEvents { type alert { id } } }';
  type Event = { priceAlertEvents: { type: string; alert: { id: string } } };
  const onLeader = subscribe<Event>(leader.urls.a, key, query);
  const onFollower = subscribe<Event>(follower.urls.a, key, query);
  const quote = leader.service.markets.quote('BTC/USD')!;
  const triggering = (owner: string) =>
    leader.service.store.priceAlerts.create({
      accountId: owner,
      symbol: 'BTC/USD',
      kind: 'price_above',
      threshold: quote.price / 2,
      signal: null,
      expiresAt: null,
      now: leader.clock.now(),
    });
  const evaluate = async () => {
    leader.clock.advance(1_000);
    await leader.service.alerts.evaluate([{ ...quote, observedAt: leader.clock.now() }], leader.clock.now());
  };
  const own = new Set<string>();
  // Both subscriptions live once each has heard one of the account's alerts (a signal, not a sleep).
  await within(10_000, async () => {
    own.add((await triggering(accountId)).id);
    await evaluate();
    return onLeader.length > 0 && onFollower.length > 0;
  });
  // Another account's alert, then the owner's: once the owner's arrives, the other's would have too.
  const theirs = await triggering((await leader.createKey('pro')).accountId);
  await evaluate();
  const last = await triggering(accountId);
  own.add(last.id);
  await evaluate();
  await within(10_000, () => [onLeader, onFollower].every((received) => received.some((r) => r.priceAlertEvents.alert.id === last.id)));
  for (const received of [onLeader, onFollower]) {
    expect(received.at(-1)).toEqual({ priceAlertEvents: { type: 'TRIGGERED', alert: { id: last.id } } });
    expect(received.map((r) => r.priceAlertEvents.alert.id).filter((id) => !own.has(id))).toEqual([]);
    expect(received.map((r) => r.priceAlertEvents.alert.id)).not.toContain(theirs.id);
  }
});

maybe('a quote written by the jobs reaches subscribers on the other instance', async () => {
  const { key } = await leader.createKey('free');
  const received = subscribe<{ quotes: { price: number } }>(follower.urls.a, key, 'subscription { quotes(symbols: ["ETH/USD"]) { price } }');
  // A new price per try until one arrives (the subscription is live), then the one this test is about.
  let probe = 1_000;
  await within(10_000, async () => {
    leader.clock.advance(2_000);
    await writeQuote(leader.service, 'ETH/USD', ++probe, leader.clock.now());
    return received.length > 0;
  });
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
