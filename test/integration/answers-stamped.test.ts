/**
 * Every answer of both listeners comes out of the one pipeline with the same stamp: a request id
 * (the client's own when it sends a plain one) and the security headers. The test walks every
 * route and every kind of refusal, including the answers written on the socket before any handler.
 */
import type supertest from 'supertest';
import WebSocket from 'ws';
import { marketDataRoutes } from '../../src/rest/routes/market-data.js';
import { predictionRoutes } from '../../src/rest/routes/prediction.js';
import { rawExchange } from '../support/raw-http.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

let t: TestService;
let key: string;
beforeAll(async () => {
  t = await startTestService();
  key = (await t.createKey('enterprise', 'pro')).key;
});
afterAll(() => t?.close());

const SECURITY = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-site',
};

type Listener = 'a' | 'b';
/** The query a route needs to answer 200: variant A's brief requires `symbols`. */
const required = (listener: Listener, path: string) => (listener === 'a' && path === '/brief' ? '?symbols=BTC/USD' : '');
const REQUEST_ID = 'walk-42.x';

/**
 * Every route and refusal, as [name, listener, request]; each is sent with the client's own request
 * id. A name ending in `(NNN)` is answered with that status, any other with 200.
 */
const WALK: [string, Listener, (agent: supertest.Agent) => supertest.Test][] = [
  ...(['a', 'b'] as const).flatMap((l) =>
    (l === 'a' ? marketDataRoutes : predictionRoutes).flatMap(
      (route) =>
        [
          [`${l} GET ${route.path}`, l, (s: supertest.Agent) => s.get(`/api/v1${route.path}${required(l, route.path)}`).set(bearer(key))],
          [`${l} GET ${route.path} without a key (401)`, l, (s: supertest.Agent) => s.get(`/api/v1${route.path}`)],
          [`${l} HEAD ${route.path}`, l, (s: supertest.Agent) => s.head(`/api/v1${route.path}${required(l, route.path)}`).set(bearer(key))],
        ] as [string, Listener, (agent: supertest.Agent) => supertest.Test][],
    ),
  ),
  ['an unknown API path (404)', 'a', (s) => s.get('/api/v1/nope').set(bearer(key))],
  ['a method the API does not take (405)', 'b', (s) => s.post('/api/v1/markets').set(bearer(key))],
  ['a parameter out of range (400)', 'b', (s) => s.get('/api/v1/alerts?limit=0').set(bearer(key))],
  ['the OpenAPI document', 'a', (s) => s.get('/api/v1/openapi.json')],
  ["a route's GraphQL operation document", 'a', (s) => s.get('/graphql/operations/MarketsPage.graphql')],
  ["a route's GraphQL operation document, HEAD", 'b', (s) => s.head('/graphql/operations/MorningBrief.graphql')],
  ['an operation document already held (304)', 'b', (s) => s.get('/graphql/operations/TopPredictionMarkets.graphql').set('If-None-Match', '*')],
  ['an operation document of the other listener (404)', 'a', (s) => s.get('/graphql/operations/MorningBrief.graphql')],
  ['an operation document by POST (405)', 'a', (s) => s.post('/graphql/operations/Brief.graphql')],
  ['the docs page', 'a', (s) => s.get('/docs')],
  ['the docs script', 'b', (s) => s.get('/docs/init.js')],
  ['a docs asset', 'b', (s) => s.get('/docs/assets/swagger-ui.css')],
  ['a docs asset that is not served (404)', 'a', (s) => s.get('/docs/assets/index.html')],
  ['health', 'a', (s) => s.get('/health')],
  ['readiness', 'b', (s) => s.get('/ready')],
  ['metrics', 'a', (s) => s.get('/metrics')],
  ['a compiled query', 'b', (s) => s.post('/graphql').set(bearer(key)).send({ query: '{ viewer { name } }' })],
  ['a query by GET', 'b', (s) => s.get('/graphql?query=%7Bviewer%7Bname%7D%7D').set(bearer(key))],
  ['a persisted document by GET, unknown (404)', 'a', (s) => s.get(`/graphql?documentId=sha256:${'b'.repeat(64)}`).set(bearer(key))],
  ['a query that asks for no JSON (406)', 'b', (s) => s.post('/graphql').set(bearer(key)).set('Accept', 'text/csv').send({ query: '{ viewer { name } }' })],
  ['a mutation (Apollo)', 'a', (s) => s.post('/graphql').set(bearer(key)).send({ query: 'mutation { _noop }' })],
  [
    'an unknown persisted query (404)',
    'a',
    (s) =>
      s
        .post('/graphql')
        .set(bearer(key))
        .send({ extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } } }),
  ],
  ['a query without a key (401)', 'b', (s) => s.post('/graphql').send({ query: '{ viewer { name } }' })],
  ['a query that does not validate (400)', 'b', (s) => s.post('/graphql').set(bearer(key)).send({ query: '{ nope }' })],
  ['malformed JSON (400)', 'a', (s) => s.post('/graphql').set('Content-Type', 'application/json').send('{"query":')],
  [
    'a body over the limit (413)',
    'a',
    (s) =>
      s
        .post('/graphql')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ query: `#${'x'.repeat(110_000)}` })),
  ],
  [
    'a text body, refused as a media type /graphql does not take (415)',
    'b',
    (s) => s.post('/graphql').set('Content-Type', 'text/plain').send('{ viewer { name } }'),
  ],
  ['Sandbox', 'a', (s) => s.get('/graphql').set('Accept', 'text/html')],
  ['GraphiQL', 'b', (s) => s.get('/graphiql')],
  ['a GraphiQL asset', 'b', (s) => s.get('/graphiql/assets/explorer.js')],
  [
    'a subscription stream without a key (401)',
    'a',
    (s) =>
      s
        .post('/graphql/stream')
        .set('Accept', 'text/event-stream')
        .set('Content-Type', 'application/json')
        .send({ query: 'subscription { priceAlertEvents { state } }' }),
  ],
  ['the dashboard sign-in page', 'a', (s) => s.get('/account/sign-in')],
  ['the dashboard, signed out (303)', 'b', (s) => s.get('/account/security')],
  ['a dashboard file', 'b', (s) => s.get('/account/assets/dashboard.css')],
  ['a dashboard page that does not exist (404)', 'a', (s) => s.get('/account/nope')],
  ['a cross-site dashboard form (403)', 'a', (s) => s.post('/account/sign-in').set('Origin', 'https://evil.example').type('form').send({ email: 'a@b.c' })],
  ['a dashboard form without its token (403)', 'b', (s) => s.post('/account/sign-in').type('form').send({ email: 'a@b.c' })],
  ['an unknown path (404)', 'b', (s) => s.get('/nope')],
  ['a URL over 8 KB (414)', 'a', (s) => s.get(`/api/v1/markets?x=${'y'.repeat(9_000)}`)],
];

describe('every answer a handler writes', () => {
  it.each(WALK)('%s', async (name, listener, send) => {
    const res = await send(t[listener]).set('X-Request-Id', REQUEST_ID);
    // The answer is the one named: a stamp on the wrong answer (a refusal a step no longer makes) proves nothing.
    expect(res.status).toBe(Number(/\((\d{3})\)$/.exec(name)?.[1] ?? 200));
    // The dashboard's pages send their Origin on their own forms (same-origin); everything else no referrer at all.
    expect(res.headers).toMatchObject(
      /dashboard/.test(name) && /html/.test(res.headers['content-type'] ?? '') ? { ...SECURITY, 'referrer-policy': 'same-origin' } : SECURITY,
    );
    expect(res.headers['x-request-id']).toBe(REQUEST_ID);
    // JSON answers may run nothing; the pages set their own policy (they load their scripts).
    if (/json/.test(res.headers['content-type'] ?? '')) expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    // The dashboard's pages: its own scripts and styles only.
    if (/dashboard/.test(name) && /html/.test(res.headers['content-type'] ?? '')) {
      expect(res.headers['content-security-policy']).toMatch(/^default-src 'none'; script-src 'self'; style-src 'self'/);
    }
  });

  it('a request id that is not a plain token is replaced by a new one', async () => {
    const res = await t.a.get('/health').set('X-Request-Id', 'a b<script>');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

/** Sends raw bytes to a listener; the answer's head by header name. */
const raw = async (listener: Listener, bytes: string) => {
  const answer = await rawExchange(Number(new URL(t.urls[listener]).port), bytes);
  return { status: answer.status, headers: answer.headerMap };
};

describe('every answer written on the socket before a handler', () => {
  const SOCKET: [string, Listener, string, number][] = [
    ['headers over 16 KB (431)', 'a', `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'x'.repeat(17_000)}\r\n\r\n`, 431],
    [
      'more header lines than allowed (431)',
      'b',
      `GET /health HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 1_001 }, (_, i) => `X-H${i}: 1\r\n`).join('')}\r\n`,
      431,
    ],
    ['HTTP/1.1 without Host (400)', 'a', 'GET /health HTTP/1.1\r\n\r\n', 400],
    ['bytes that are not HTTP (400)', 'b', 'HELLO\r\n\r\n', 400],
    [
      'a WebSocket upgrade of a path that has none (404)',
      'a',
      'GET /health HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
      404,
    ],
  ];
  it.each(SOCKET)('%s', async (_name, listener, bytes, status) => {
    const answer = await raw(listener, bytes);
    expect(answer.status).toBe(status);
    expect(answer.headers).toMatchObject({ ...SECURITY, 'content-type': 'application/json; charset=utf-8' });
    expect(answer.headers['x-request-id']).toMatch(/^[\w.-]{1,64}$/);
  });
});

it('the 101 that opens a WebSocket subscription connection carries the stamp too', async () => {
  const socket = new WebSocket(`${t.urls.b.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', { headers: { 'X-Request-Id': REQUEST_ID } });
  try {
    const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
      socket.once('upgrade', (res) => resolve(res.headers));
      socket.once('error', reject);
    });
    expect(headers).toMatchObject({ ...SECURITY, 'x-request-id': REQUEST_ID });
  } finally {
    socket.terminate();
  }
});
