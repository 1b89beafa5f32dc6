/**
 * Two instances on one PostgreSQL (and Redis): the one holding the jobs lease produces the events,
 * and subscribers on both instances receive them: quotes through the read models kept in step by
 * change notices, price alert events through their own notices.
 */
import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { createPgSchema, postgresAvailable } from '../support/engines.js';
import { redisAvailable, SHARED_REDIS_URL } from '../support/redis.js';
import { startTestService, type TestService } from '../support/service.js';
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
  const quote = leader.service.markets.quote('ETH/USD')!;
  leader.clock.advance(2_000);
  await leader.service.ingest.accept({
    kind: 'market-data',
    markets: [],
    quotes: [{ ...quote, price: 1_234.5, observedAt: leader.clock.now() }],
    candles: [],
    problems: { invalid: 0, examples: [] },
    skipped: {},
  });
  await within(10_000, () => received.some((r) => r.quotes.price === 1_234.5));
});
