/**
 * GraphQL subscriptions over WebSocket, with graphql-ws's own client: quotes as the read model
 * changes (coalesced per symbol per second), price alert events of the caller's account, movement
 * alerts on B with the key as `apikey`, plan and quota rules of the edge, a per-plan cap, a revoked
 * key's socket closed with 4403 within 2 s, a client that stops reading closed with 1013.
 */
import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { MovementAlert } from '../../src/domain/prediction.js';
import { startTestService, type TestService } from '../support/service.js';
import { within } from '../support/wait.js';

let t: TestService;
const clients: Client[] = [];
beforeAll(async () => {
  t = await startTestService();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
});
afterAll(() => t?.close());

const wsUrl = (base: string) => `${base.replace(/^http/, 'ws')}/graphql`;

/** A graphql-ws client that records how its socket closed. */
function connect(base: string, connectionParams: Record<string, string>) {
  const closes: { code: number; reason: string; at: number }[] = [];
  const client = createClient({
    url: wsUrl(base),
    webSocketImpl: WebSocket,
    connectionParams,
    retryAttempts: 0,
    lazy: false,
    // The close is recorded below; the client would also print it.
    onNonLazyError: () => undefined,
    on: {
      closed: (event) => {
        const { code, reason } = event as { code: number; reason: string };
        closes.push({ code, reason, at: Date.now() });
      },
    },
  });
  clients.push(client);
  return { client, closes };
}

/** Subscribes and collects what arrives: data, the first error, completion. */
function collect<T>(client: Client, query: string, variables?: Record<string, unknown>) {
  const received: T[] = [];
  const state: { error?: unknown; completed: boolean } = { completed: false };
  const dispose = client.subscribe<T>(
    { query, variables },
    {
      next: (value) => {
        if (value.errors) state.error = value.errors;
        else received.push(value.data as T);
      },
      error: (error) => {
        state.error = error;
      },
      complete: () => {
        state.completed = true;
      },
    },
  );
  return { received, state, dispose };
}

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const codeOf = (error: unknown) => (Array.isArray(error) ? (error[0] as { extensions?: { code?: string } }).extensions?.code : undefined);

/** A BTC/USD alert the next evaluation triggers (its threshold is half the price). */
const alertThatTriggers = (accountId: string) =>
  t.service.store.priceAlerts.create({
    accountId,
    symbol: 'BTC/USD',
    kind: 'price_above',
    threshold: t.service.markets.quote('BTC/USD')!.price / 2,
    signal: null,
    expiresAt: null,
    now: t.clock.now(),
  });

function tick(symbol: string, price: number) {
  const quote = t.service.markets.quote(symbol)!;
  t.clock.advance(10);
  t.service.markets.applyQuotes([{ ...quote, price, observedAt: t.clock.now() }]);
}

it('quotes: each change of a subscribed symbol arrives, faster ticks coalesced to the latest, others not sent', async () => {
  const { key } = await t.createKey('free');
  const { client } = connect(t.urls.a, bearer(key));
  const sub = collect<{ quotes: { symbol: string; price: number; status: string; time: string } }>(
    client,
    'subscription { quotes(symbols: ["btc/usd"]) { symbol price change24h status time } }',
  );
  // The subscription is active once a first tick gets through.
  await within(5_000, () => {
    tick('BTC/USD', 50_000);
    return sub.received.length > 0;
  });
  expect(sub.received[0]!.quotes).toMatchObject({ symbol: 'BTC/USD', price: 50_000, status: 'ACTIVE' });
  const before = sub.received.length;
  // Five ticks at once, and one on a symbol nobody asked for: the latest BTC price arrives, once, within a second or so.
  for (const price of [50_001, 50_002, 50_003, 50_004, 50_005]) tick('BTC/USD', price);
  tick('ETH/USD', 3_000);
  await within(5_000, () => sub.received.at(-1)!.quotes.price === 50_005);
  expect(sub.received.length - before).toBeLessThanOrEqual(2);
  expect(sub.received.every((r) => r.quotes.symbol === 'BTC/USD')).toBe(true);
  expect(sub.state.error).toBeUndefined();
});

/** Runs the alert evaluator once, a second on. */
async function evaluateAlerts(): Promise<void> {
  t.clock.advance(1_000);
  await t.service.alerts.evaluate([{ ...t.service.markets.quote('BTC/USD')!, observedAt: t.clock.now() }], t.clock.now());
}

it('priceAlertEvents: the caller’s alerts triggering arrive, another account’s never; a Free key is refused with FORBIDDEN', async () => {
  const owner = await t.createKey('pro');
  const { client } = connect(t.urls.a, bearer(owner.key));
  const sub = collect<{ priceAlertEvents: { type: string; at: string; alert: { id: string; status: string } } }>(
    client,
    'subscription { priceAlertEvents { type at alert { id status symbol } } }',
  );
  const own = new Set<string>();
  // Live once one of the owner's alerts is heard: a new one triggered per try (a signal, not a sleep).
  await within(5_000, async () => {
    own.add((await alertThatTriggers(owner.accountId)).id);
    await evaluateAlerts();
    return sub.received.length > 0;
  });
  // Another account's alert triggers first, then one of the owner's: once the owner's arrives, the
  // other's (sent before it, on the same socket, had it been sent) would have arrived too.
  const theirs = await alertThatTriggers((await t.createKey('pro')).accountId);
  await evaluateAlerts();
  const last = await alertThatTriggers(owner.accountId);
  own.add(last.id);
  await evaluateAlerts();
  await within(5_000, () => sub.received.some((r) => r.priceAlertEvents.alert.id === last.id));
  expect(sub.received.at(-1)).toEqual({
    priceAlertEvents: { type: 'TRIGGERED', at: new Date(t.clock.now()).toISOString(), alert: { id: last.id, status: 'TRIGGERED', symbol: 'BTC/USD' } },
  });
  expect(sub.received.map((r) => r.priceAlertEvents.alert.id).filter((id) => !own.has(id))).toEqual([]);
  expect(sub.received.map((r) => r.priceAlertEvents.alert.id)).not.toContain(theirs.id);

  const free = await t.createKey('free');
  const refused = collect(connect(t.urls.a, bearer(free.key)).client, 'subscription { priceAlertEvents { type } }');
  await within(5_000, () => refused.state.error !== undefined);
  expect(codeOf(refused.state.error)).toBe('FORBIDDEN');
});

it('movementAlerts on variant B, the key given as apikey', async () => {
  const { key } = await t.createKey('free', 'pro');
  const { client } = connect(t.urls.b, { apikey: key });
  const sub = collect<{ movementAlerts: { id: string; question: string; deltaPts: number } }>(
    client,
    'subscription { movementAlerts { id question deltaPts } }',
  );
  const market = t.service.predictions.all()[0]!;
  const alert: MovementAlert = {
    id: 'mvt_test1',
    marketId: market.id,
    question: market.question,
    oldPct: 40,
    newPct: 47,
    deltaPts: 7,
    detectedAt: t.clock.now(),
  };
  await within(5_000, () => {
    t.service.predictions.addAlerts([{ ...alert, id: `mvt_${Math.random()}` }]);
    return sub.received.length > 0;
  });
  expect(sub.received[0]!.movementAlerts).toMatchObject({ question: market.question, deltaPts: 7 });
});

it('predictionMarket(id): the market as its probability or volume changes; an unknown id is NOT_FOUND', async () => {
  const { key } = await t.createKey('free', 'pro');
  const { client } = connect(t.urls.b, { apikey: key });
  const market = t.service.predictions.all()[0]!;
  const sub = collect<{ predictionMarket: { id: string; probability: number; volume24h: number } }>(
    client,
    `subscription { predictionMarket(id: "${market.id}") { id probability volume24h } }`,
  );
  // Each observation changes the volume, so each is a change (until the subscription is admitted, nobody hears them).
  let volume = 777_000;
  await within(5_000, () => {
    t.clock.advance(1_000);
    volume += 1;
    t.service.predictions.applyObservations([{ marketId: market.id, prob: 0.4242, volume24h: volume, observedAt: t.clock.now() }]);
    return sub.received.length > 0;
  });
  expect(sub.state.error).toBeUndefined();
  const update = sub.received[0]!.predictionMarket;
  expect(update).toMatchObject({ id: market.id, probability: 0.4242 });
  // One of the observations made (the latest may still be on its way).
  expect(update.volume24h).toBeGreaterThan(777_000);
  expect(update.volume24h).toBeLessThanOrEqual(volume);

  const unknown = collect(client, 'subscription { predictionMarket(id: "demo:nope") { id } }');
  await within(5_000, () => unknown.state.error !== undefined);
  expect(codeOf(unknown.state.error)).toBe('NOT_FOUND');
});

it('each plan holds a bounded number of subscriptions at once; starting one spends a unit of quota', async () => {
  const { key } = await t.createKey('free');
  const { client } = connect(t.urls.a, bearer(key));
  const subs = [0, 1, 2].map(() => collect(client, 'subscription { quotes(symbols: ["ETH/USD"]) { price } }'));
  await within(5_000, () => subs[2]!.state.error !== undefined);
  expect(codeOf(subs[2]!.state.error)).toBe('RATE_LIMITED');
  expect(subs[0]!.state.error).toBeUndefined();
  expect(subs[1]!.state.error).toBeUndefined();
  // Free: 10 a minute. Three subscriptions started (the third was admitted by the quota, then capped): 7 REST calls are left.
  const res = await t.a.get('/api/v1/markets?limit=1').set({ Authorization: `Bearer ${key}` });
  expect(res.headers['x-ratelimit-remaining']).toBe('6');
});

it('a revoked key’s connection is closed with 4403 within 2 s', async () => {
  const { key, keyId } = await t.createKey('pro');
  const { client, closes } = connect(t.urls.a, bearer(key));
  const sub = collect(client, 'subscription { quotes(symbols: ["BTC/USD"]) { price } }');
  await within(5_000, () => {
    tick('BTC/USD', 51_000 + Math.random());
    return sub.received.length > 0;
  });
  const revokedAt = Date.now();
  await t.service.store.accounts.revokeKey(keyId, revokedAt);
  await within(5_000, () => closes.length > 0);
  expect(closes[0]!.code).toBe(4403);
  expect(closes[0]!.at - revokedAt).toBeLessThan(2_000);
});

it('a client that stops reading is closed with 1013 instead of being buffered for', async () => {
  const { key } = await t.createKey('free', 'pro');
  const socket = new WebSocket(wsUrl(t.urls.b), 'graphql-transport-ws');
  const messages: string[] = [];
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  socket.on('message', (data) => messages.push(String(data)));
  await new Promise((resolve) => socket.once('open', resolve));
  socket.send(JSON.stringify({ type: 'connection_init', payload: { apikey: key } }));
  await within(5_000, () => messages.some((m) => m.includes('connection_ack')));
  socket.send(
    JSON.stringify({ id: '1', type: 'subscribe', payload: { query: 'subscription { movementAlerts { id question oldPct newPct deltaPts detectedAt } }' } }),
  );
  const market = t.service.predictions.all()[0]!;
  // Live once an alert arrives: one per try (a signal, not a sleep).
  const probe = { id: 'mvt_probe', marketId: market.id, question: market.question, oldPct: 40, newPct: 47, deltaPts: 7 };
  await within(5_000, () => {
    t.service.predictions.addAlerts([{ ...probe, id: `mvt_probe_${Math.random()}`, detectedAt: t.clock.now() }]);
    return messages.some((m) => m.includes('"next"'));
  });
  // Stop reading: the kernel's buffers fill, then the server's queue for this subscription.
  (socket as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
  const heapBefore = process.memoryUsage().heapUsed;
  const question = `${market.question} ${'x'.repeat(2_000)}`;
  let pushed = 0;
  for (let round = 0; round < 200; round++) {
    t.service.predictions.addAlerts(
      Array.from({ length: 100 }, (_, i) => ({
        id: `mvt_${round}_${i}`,
        marketId: market.id,
        question,
        oldPct: 40,
        newPct: 47,
        deltaPts: 7,
        detectedAt: t.clock.now(),
      })),
    );
    pushed += 100;
    await new Promise((r) => setImmediate(r));
  }
  const heapAfter = process.memoryUsage().heapUsed;
  (socket as unknown as { _socket: { resume(): void } })._socket.resume();
  expect(await closed).toBe(1013);
  const delivered = messages.filter((m) => m.includes('"next"')).length;
  expect(delivered).toBeLessThan(pushed);
  console.log(`slow consumer: ${pushed} alerts pushed, ${delivered} delivered before the close; heap grew ${((heapAfter - heapBefore) / 1e6).toFixed(1)} MB`);
});

it('a connection without a valid key is closed with 4403; a message over 64 KB with 1009', async () => {
  const { closes } = connect(t.urls.a, bearer('mgw_not_a_key'));
  await within(5_000, () => closes.length > 0);
  expect(closes[0]!.code).toBe(4403);

  const { key } = await t.createKey('pro');
  const socket = new WebSocket(wsUrl(t.urls.a), 'graphql-transport-ws');
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise((resolve) => socket.once('open', resolve));
  socket.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${key}`, padding: 'x'.repeat(70_000) } }));
  expect(await closed).toBe(1009);
});

it('a connection whose key the store cannot check is closed with 1013 (try again later), not 4403', async () => {
  const own = await startTestService();
  try {
    const { key } = await own.createKey('pro'); // never used: not in the key cache
    await own.service.store.connection.close(); // the store is gone
    const closes: number[] = [];
    const client = createClient({
      url: wsUrl(own.urls.a),
      webSocketImpl: WebSocket,
      connectionParams: bearer(key),
      retryAttempts: 0,
      lazy: false,
      onNonLazyError: () => undefined,
      on: { closed: (event) => void closes.push((event as { code: number }).code) },
    });
    clients.push(client);
    await within(5_000, () => closes.length > 0);
    expect(closes[0]).toBe(1013);
  } finally {
    await own.close().catch(() => undefined);
  }
});

it('a socket that never initialises is closed with 4408 once the 3 s allowed are past', async () => {
  const socket = new WebSocket(wsUrl(t.urls.a), 'graphql-transport-ws');
  const opened = Date.now();
  const code = await new Promise<number>((resolve) => socket.on('close', (c) => resolve(c)));
  expect(code).toBe(4408);
  expect(Date.now() - opened).toBeGreaterThanOrEqual(2_900);
});
