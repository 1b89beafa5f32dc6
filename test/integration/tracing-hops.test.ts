/**
 * Traces across hops, with the service exporting to a loopback OTLP/HTTP receiver: a REST GET's
 * store query under the request's server span; /graphql's admission and operation spans (compiled
 * and Apollo); an upstream poll (a recorded payload from a loopback upstream) and a webhook delivery
 * (a loopback receiver) carry the `traceparent` of their client spans on the wire, and those spans
 * arrive under their background roots; each subscription's start is a span; no key and no secret
 * in any attribute of any span.
 */
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import { Webhook } from 'standardwebhooks';
import { WebSocket } from 'ws';
import { graphqlPost, priceAlertAbove } from '../support/graphql-call.js';
import { ancestry, type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../support/otlp-receiver.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { recordedFixture } from '../support/upstream-fixtures.js';
import { startUpstreamServer, type UpstreamServer } from '../support/upstream-server.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN = 'b7ad6b7169203331';
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

let receiver: OtlpReceiver;
let upstream: UpstreamServer;
let hooks: Awaited<ReturnType<typeof startWebhookReceiver>>;
let t: TestService;
/** Every key and secret the tests make: none may appear in a span. */
const secrets: string[] = [];

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  upstream = await startUpstreamServer([{ path: '/markets', reply: { body: recordedFixture('polymarket/gamma_markets_excerpt_2026-01-10.json') } }]);
  hooks = await startWebhookReceiver();
  t = await startTestService({
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: '50',
      FEEDS: 'polymarket',
      POLYMARKET_BASE_URL: upstream.baseUrl,
      POLYMARKET_POLL_MS: '3600000',
      UPSTREAM_PAGE_GAP_MS: '0',
      WEBHOOK_ALLOW_HTTP: '1',
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128',
      WEBHOOK_POLL_MS: '100',
    },
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await Promise.all([receiver?.close(), upstream?.close(), hooks?.close()]);
});

const withTrace = (req: { set(name: string, value: string): unknown }) => req.set('traceparent', `00-${TRACE_ID}-${CALLER_SPAN}-01`);

it('a REST GET that reads the store: the store query span nested under the request server span', async () => {
  const { key } = await t.createKey('enterprise');
  secrets.push(key);
  const res = await t.a.get('/api/v1/alerts').set(bearer(key)).set('traceparent', `00-${TRACE_ID}-${CALLER_SPAN}-01`);
  expect(res.status).toBe(200);

  const isServer = (s: ReceivedSpan) => s.traceId === TRACE_ID && s.attributes['http.route'] === '/api/v1/alerts';
  const spans = await receiver.until((all) => all.some(isServer) && all.some((s) => s.traceId === TRACE_ID && s.attributes['db.system'] !== undefined));
  const server = spans.find(isServer)!;
  expect(server.parentSpanId).toBe(CALLER_SPAN);
  const query = spans.find((s) => s.traceId === TRACE_ID && s.kind === 3 && s.attributes['db.system'] !== undefined)!;
  expect(query.attributes['db.operation.name']).toBe('SELECT');
  // Its parent chain reaches the server span, through the request's own spans.
  const chain = ancestry(spans, query);
  expect(chain.map((s) => s.spanId)).toContain(server.spanId);
  expect(chain.at(-1)!.spanId).toBe(server.spanId);
});

it('a request its caller did not sample: none of its spans is recorded', async () => {
  const { key } = await t.createKey('enterprise');
  secrets.push(key);
  const unsampledTrace = '1af7651916cd43dd8448eb211c80319d';
  const sampledTrace = '2af7651916cd43dd8448eb211c80319e';
  expect((await t.a.get('/api/v1/alerts').set(bearer(key)).set('traceparent', `00-${unsampledTrace}-${CALLER_SPAN}-00`)).status).toBe(200);
  expect((await t.a.get('/api/v1/alerts').set(bearer(key)).set('traceparent', `00-${sampledTrace}-${CALLER_SPAN}-01`)).status).toBe(200);
  // The sampled one's server span, which ends last, arrives after anything the first sent: the first sent nothing.
  const spans = await receiver.until((all) => all.some((s) => s.traceId === sampledTrace && s.kind === 2));
  expect(spans.filter((s) => s.traceId === unsampledTrace)).toEqual([]);
  expect(spans.filter((s) => s.traceId === sampledTrace).map((s) => s.name)).toEqual(expect.arrayContaining(['admission', 'GET /api/v1/alerts']));
});

it('/graphql: the admission and the operation (compiled query, Apollo mutation) under the server span', async () => {
  const { key, keyId } = await t.createKey('enterprise');
  secrets.push(key);
  const query = (await withTrace(graphqlPost(t.a, key, 'query Markets { assetMarkets(limit: 1) { total } }'))) as { status: number };
  expect(query.status).toBe(200);
  const mutation = (await withTrace(
    graphqlPost(t.a, key, 'mutation Alert($in: CreatePriceAlertInput!) { createPriceAlert(input: $in) { id } }', priceAlertAbove(1e9)),
  )) as { status: number };
  expect(mutation.status).toBe(200);

  const spans = await receiver.until((all) => ['query Markets', 'mutation Alert'].every((name) => all.some((s) => s.name === name)));
  for (const [name, type] of [
    ['query Markets', 'query'],
    ['mutation Alert', 'mutation'],
  ] as const) {
    const operation = spans.find((s) => s.name === name)!;
    expect(operation.attributes).toMatchObject({
      'graphql.operation.name': name.split(' ')[1],
      'graphql.operation.type': type,
      'mgw.graphql.answer': 'executed',
    });
    expect(String(operation.attributes['graphql.document.id'])).toMatch(/^[0-9a-f]{64}$/);
    const [, ...above] = ancestry(spans, operation);
    const server = above.at(-1)!;
    expect(server).toMatchObject({ traceId: TRACE_ID, parentSpanId: CALLER_SPAN, kind: 2 });
    expect(server.attributes['http.route']).toBe('/graphql');
    const admission = spans.find((s) => s.name === 'admission' && s.parentSpanId === server.spanId)!;
    expect(admission.attributes).toMatchObject({ 'mgw.admission': 'admitted', 'mgw.key.id': keyId, 'mgw.transport': 'graphql' });
  }
});

it("a client's operation name is cut at 64 characters in the operation's span name and attribute", async () => {
  const { key } = await t.createKey('enterprise');
  secrets.push(key);
  const long = `Long${'x'.repeat(20_000)}`;
  expect(((await graphqlPost(t.a, key, `query ${long} { assetMarkets(limit: 1) { total } }`)) as { status: number }).status).toBe(200);
  const spans = await receiver.until((all) => all.some((s) => String(s.attributes['graphql.operation.name'] ?? '').startsWith('Longx')));
  const operation = spans.find((s) => String(s.attributes['graphql.operation.name'] ?? '').startsWith('Longx'))!;
  expect(operation.attributes['graphql.operation.name']).toBe(long.slice(0, 64));
  expect(operation.name).toBe(`query ${long.slice(0, 64)}`);
});

it('an upstream poll sends its client span traceparent, and the span arrives under the poll root', async () => {
  const before = upstream.headers.length;
  await t.service.liveFeeds.pollAll();
  const sent = upstream.headers.slice(before);
  expect(sent.length).toBeGreaterThan(0);
  const [, traceId, spanId] = TRACEPARENT.exec(String(sent[0]!.traceparent)) ?? [];
  expect(spanId).toBeDefined();

  const spans = await receiver.until((all) => all.some((s) => s.spanId === spanId));
  const client = spans.find((s) => s.spanId === spanId)!;
  expect(client).toMatchObject({ traceId, kind: 3, name: 'GET' });
  const port = Number(new URL(upstream.baseUrl).port);
  expect(client.attributes).toMatchObject({
    'http.request.method': 'GET',
    'server.address': '127.0.0.1',
    'server.port': port,
    'http.response.status_code': 200,
  });
  expect(client.attributes['url.full']).toBe(`${upstream.baseUrl}/markets`);
  const root = spans.find((s) => s.spanId === client.parentSpanId)!;
  expect(root).toMatchObject({ name: 'poll polymarket', parentSpanId: '' });
});

it('a webhook delivery carries its client span traceparent beside a signature that still verifies', async () => {
  const { key } = await t.createKey('enterprise');
  secrets.push(key);
  const created = await graphqlPost(t.a, key, 'mutation($url: String!) { createWebhookEndpoint(input: { url: $url }) { secret endpoint { id } } }', {
    url: hooks.url('/traced'),
  });
  const made = created.body.data.createWebhookEndpoint as { secret: string; endpoint: { id: string } };
  secrets.push(made.secret);
  await graphqlPost(t.a, key, 'mutation($id: ID!) { sendTestWebhook(id: $id) { id } }', { id: made.endpoint.id });
  await receiver.until(() => hooks.received.some((r) => r.path === '/traced'));
  const delivered = hooks.received.find((r) => r.path === '/traced')!;
  expect(new Webhook(made.secret).verify(delivered.body, delivered.headers)).toMatchObject({ type: 'webhook.test' });
  const [, traceId, spanId] = TRACEPARENT.exec(delivered.headers.traceparent ?? '') ?? [];
  expect(spanId).toBeDefined();

  const spans = await receiver.until((all) => all.some((s) => s.spanId === spanId));
  const client = spans.find((s) => s.spanId === spanId)!;
  expect(client).toMatchObject({ traceId, kind: 3, name: 'POST' });
  // Its origin alone: a receiver's path may hold its token (Slack's, Discord's).
  expect(client.attributes).toMatchObject({
    'http.request.method': 'POST',
    'url.full': new URL(hooks.url('/traced')).origin,
    'http.response.status_code': 200,
  });
  expect(spans.find((s) => s.spanId === client.parentSpanId)).toMatchObject({ name: 'webhook delivery', parentSpanId: '' });
});

it("each subscription's start is a span: the operation and the admission, over WebSocket and SSE", async () => {
  const { key, keyId } = await t.createKey('free', 'pro');
  secrets.push(key);
  const sse = createSseClient({ url: `${t.urls.b}/graphql/stream`, headers: { Authorization: `Bearer ${key}` }, retryAttempts: 0 });
  const ws = createWsClient({
    url: `${t.urls.b.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { Authorization: `Bearer ${key}` },
    retryAttempts: 0,
  });
  const sink = { next: () => undefined, error: () => undefined, complete: () => undefined };
  const stops = [
    sse.subscribe({ query: 'subscription MovesSse { movementAlerts { deltaPts } }' }, sink),
    ws.subscribe({ query: 'subscription MovesWs { movementAlerts { deltaPts } }' }, sink),
  ];
  try {
    const spans = await receiver.until((all) => ['subscription MovesSse', 'subscription MovesWs'].every((name) => all.some((s) => s.name === name)));
    for (const [name, transport] of [
      ['MovesSse', 'sse'],
      ['MovesWs', 'graphql-ws'],
    ]) {
      const start = spans.find((s) => s.name === `subscription ${name}`)!;
      expect(start.attributes).toMatchObject({
        'graphql.operation.name': name,
        'graphql.operation.type': 'subscription',
        'mgw.transport': transport,
        'mgw.admission': 'admitted',
        'mgw.key.id': keyId,
      });
    }
  } finally {
    for (const stop of stops) stop();
    sse.dispose();
    await ws.dispose();
  }
});

it('no span holds a key or a secret in any attribute', () => {
  // Every attribute value of every span received, resource included: no key, no secret, not even in part.
  const values = receiver.spans.flatMap((s) => [...Object.values(s.attributes), ...Object.values(s.resource)].map(String));
  expect(receiver.spans.length).toBeGreaterThan(0);
  for (const secret of secrets) {
    for (const value of values) {
      expect(value).not.toContain(secret);
      expect(value).not.toContain(secret.slice(-16));
    }
  }
  expect(values.some((v) => /whsec_|mgw_[0-9A-Za-z]{32}/.test(v))).toBe(false);
});
