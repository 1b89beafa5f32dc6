/**
 * Subscriptions over Server-Sent Events at /graphql/stream, with graphql-sse's own client: the same
 * gate as WebSocket (key, plan, quota, cap), the key in the Authorization header or `?apikey=` on B.
 */
import { createClient } from 'graphql-sse';
import { startTestService, type TestService } from '../support/service.js';
import { within } from '../support/wait.js';

let t: TestService;
const disposers: (() => void)[] = [];
beforeAll(async () => {
  t = await startTestService();
});
afterEach(() => {
  for (const dispose of disposers.splice(0)) dispose();
});
afterAll(() => t?.close());

function subscribe<T>(url: string, headers: Record<string, string>, query: string) {
  const received: T[] = [];
  const state: { error?: unknown } = {};
  const client = createClient({ url, headers, retryAttempts: 0 });
  const unsubscribe = client.subscribe<T>(
    { query },
    {
      next: (value) => {
        if (value.errors) state.error = value.errors;
        else received.push(value.data as T);
      },
      error: (error) => {
        state.error = error;
      },
      complete: () => undefined,
    },
  );
  disposers.push(() => {
    unsubscribe();
    client.dispose();
  });
  return { received, state };
}

function tick(symbol: string, price: number) {
  const quote = t.service.markets.quote(symbol)!;
  t.clock.advance(10);
  t.service.markets.applyQuotes([{ ...quote, price, observedAt: t.clock.now() }]);
}

it('quotes over SSE, with a Bearer key', async () => {
  const { key } = await t.createKey('free');
  const sub = subscribe<{ quotes: { symbol: string; price: number } }>(
    `${t.urls.a}/graphql/stream`,
    { Authorization: `Bearer ${key}` },
    'subscription { quotes(symbols: ["SOL/USD"]) { symbol price } }',
  );
  await within(5_000, () => {
    tick('SOL/USD', 150 + Math.random());
    return sub.received.length > 0;
  });
  expect(sub.received[0]!.quotes.symbol).toBe('SOL/USD');
  expect(sub.state.error).toBeUndefined();
});

it('movement alerts over SSE on B, the key as ?apikey=', async () => {
  const { key } = await t.createKey('free', 'pro');
  const sub = subscribe<{ movementAlerts: { deltaPts: number } }>(
    `${t.urls.b}/graphql/stream?apikey=${key}`,
    {},
    'subscription { movementAlerts { deltaPts } }',
  );
  const market = t.service.predictions.all()[0]!;
  await within(5_000, () => {
    t.service.predictions.addAlerts([
      { id: `mvt_sse_${Math.random()}`, marketId: market.id, question: market.question, oldPct: 10, newPct: 17, deltaPts: 7, detectedAt: t.clock.now() },
    ]);
    return sub.received.length > 0;
  });
  expect(sub.received[0]!.movementAlerts.deltaPts).toBe(7);
});

it('the same refusals as every transport: no key 401, a plan without it 403, with their GraphQL codes', async () => {
  const answer = (headers: Record<string, string>, query: string) =>
    fetch(`${t.urls.a}/graphql/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
      body: JSON.stringify({ query }),
    });
  const none = await answer({}, 'subscription { quotes(symbols: ["BTC/USD"]) { price } }');
  expect(none.status).toBe(401);
  expect(((await none.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe('UNAUTHENTICATED');
  const { key } = await t.createKey('free');
  const forbidden = await answer({ Authorization: `Bearer ${key}` }, 'subscription { priceAlertEvents { type } }');
  expect(forbidden.status).toBe(403);
  expect(((await forbidden.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe('FORBIDDEN');
});

it('the cap counts SSE streams too, and a stream that ends gives its place back', async () => {
  const { key } = await t.createKey('free'); // 2 at once
  const query = 'subscription { quotes(symbols: ["XRP/USD"]) { price } }';
  const url = `${t.urls.a}/graphql/stream`;
  const headers = { Authorization: `Bearer ${key}` };
  const open = async () => Number(/^mgw_subscriptions_open (\d+)/m.exec((await t.a.get('/metrics')).text)?.[1]);
  const openBefore = await open();
  const first = subscribe(url, headers, query);
  subscribe(url, headers, query);
  await within(5_000, async () => (await open()) === openBefore + 2); // both admitted: a signal, not a sleep
  const third = subscribe(url, headers, query);
  await within(5_000, () => third.state.error !== undefined);
  expect(String(third.state.error)).toMatch(/429|at most 2 subscriptions/);
  expect(first.state.error).toBeUndefined();
  // The cap's 429 as the wire says it: the rate-limit headers of the unit it spent, like every other
  // 429, and GraphQL's code without Apollo's internal extensions.http.
  const capped = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ query }),
  });
  expect(capped.status).toBe(429);
  expect(capped.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  const cappedBody = (await capped.json()) as { errors: { extensions: Record<string, unknown> }[] };
  expect(cappedBody.errors[0]!.extensions).toEqual({ code: 'RATE_LIMITED' });

  const before = await open();
  disposers.shift()!(); // the first ends
  await within(5_000, async () => (await open()) === before - 1);
  const again = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ query }),
  });
  expect(again.status).toBe(200);
  await again.body?.cancel();
});
