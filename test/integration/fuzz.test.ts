/**
 * Generated hostile requests (fast-check) across both facades and /graphql: odd methods and content
 * types, duplicate and nested parameters, unicode, huge values, broken percent-encoding, bad keys,
 * deep, aliased and malformed queries. Whatever arrives: never a 5xx, always a JSON body in the
 * right envelope (a GraphQL result on /graphql), never a stack trace.
 */
import http from 'node:http';
import fc from 'fast-check';
import { startTestService, type TestService } from '../support/service.js';

/**
 * 2 000 in the suite, with a new seed each run (FUZZ_SEED replays one); `npm run test:fuzz` runs the
 * full 10 000. Both reach every status the first test asks for.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 2_000);

let t: TestService;
let ports: { A: number; B: number };
let goodKey: string;
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

beforeAll(async () => {
  t = await startTestService();
  goodKey = (await t.createKey('enterprise', 'pro')).key;
  const portOf = (agentUrl: unknown) => Number(new URL(agentUrl as string).port);
  ports = { A: portOf((t.a as unknown as { app: string }).app), B: portOf((t.b as unknown as { app: string }).app) };
});
afterAll(async () => {
  agent?.destroy();
  await t?.close();
});

interface Sent {
  variant: 'A' | 'B';
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

function send(req: Sent): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve, reject) => {
    // An explicit length: node's client sends an OPTIONS or TRACE body without one, which the server
    // would rightly read as the start of the next request.
    const headers = req.body === undefined ? req.headers : { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) };
    const r = http.request({ host: '127.0.0.1', port: ports[req.variant], method: req.method, path: req.path, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type'] ?? ''), text }));
    });
    r.on('error', reject);
    r.end(req.body);
  });
}

// --- generators -------------------------------------------------------------------------------

const enc = (s: string) => encodeURIComponent(s);
const hostileText = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 10 }),
  fc.constantFrom(
    '',
    ' ',
    '-1',
    '0',
    '1e309',
    '9'.repeat(400),
    'NaN',
    '1.5',
    '0x10',
    'null',
    '[]',
    '{}',
    'BTC/USD',
    'btc/usd,,ETH/USD',
    '../../etc/passwd',
    '<script>',
    "' or 1=1 --",
    '\u0000',
    '🙂',
  ),
  fc.integer().map(String),
);
const paramName = fc.oneof(
  fc.constantFrom('limit', 'offset', 'type', 'status', 'symbol', 'symbols', 'interval', 'apikey', 'q'),
  fc.constantFrom('limit[]', 'type[x]', 'symbols[0]', 'limit[a][b]'),
  fc.string({ maxLength: 8 }),
);
/** One query-string pair, sometimes with a percent-encoding that does not decode. */
const pair = fc
  .tuple(paramName, hostileText, fc.constantFrom('ok', 'ok', 'ok', 'broken', 'raw'))
  .map(([name, value, how]) =>
    how === 'broken'
      ? `${enc(name)}=${enc(value)}%E0%A4%A${fc.sample(fc.constantFrom('', '%', '%Z', '%zz'), 1)[0]}`
      : `${enc(name)}=${how === 'raw' ? enc(value).replace(/%20/g, '+') : enc(value)}`,
  );
const queryString = fc.array(pair, { maxLength: 8 }).map((pairs) => (pairs.length ? `?${pairs.join('&')}` : ''));
const hugeQuery = fc.integer({ min: 1_000, max: 9_000 }).map((n) => `?symbols=${'A'.repeat(n)}`);
const apiPath = fc.oneof(
  fc.constantFrom(
    '/api/v1/markets',
    '/api/v1/brief',
    '/api/v1/alerts',
    '/api/v1/markets/',
    '/api/v1',
    '/api/v1/',
    '/api/v1/openapi.json',
    '/api/v1/nope',
    '/api/v1/markets/BTC%2FUSD',
    '/api//v1/markets',
    '/API/V1/MARKETS',
  ),
  fc.string({ maxLength: 12 }).map((s) => `/api/v1/${enc(s)}`),
);
const method = fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'PROPFIND', 'TRACE');
const authorization = fc.oneof(
  { weight: 6, arbitrary: fc.constant('Bearer GOOD') },
  fc.constant(undefined),
  fc.constant('GOOD'),
  fc.constantFrom('Bearer', 'Bearer ', 'bearer GOOD', 'Basic Zm9vOmJhcg==', 'Bearer mgw_', `Bearer mgw_${'a'.repeat(40)}`, 'Bearer GOOD GOOD', 'Token GOOD'),
  fc.string({ maxLength: 30 }).map((s) => `Bearer ${s.replace(/[^\x20-\x7e]/g, '')}`),
);
const contentType = fc.constantFrom(
  undefined,
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/graphql',
  'application/json; charset=latin1',
  'application/json+evil',
  '*/*',
);

const restRequest = fc
  .record({
    variant: fc.constantFrom('A' as const, 'B' as const),
    method,
    path: apiPath,
    query: fc.oneof(queryString, queryString, hugeQuery),
    auth: authorization,
    type: contentType,
    body: fc.option(fc.string({ maxLength: 200 })),
  })
  .map(
    ({ variant, method, path, query, auth, type, body }): Sent => ({
      variant,
      method,
      path: `${path}${query.replace(/GOOD/g, '')}`,
      headers: { ...(auth ? { authorization: auth.replace(/GOOD/g, goodKey) } : {}), ...(type ? { 'content-type': type } : {}) },
      ...(body && method !== 'GET' && method !== 'HEAD' ? { body } : {}),
    }),
  );

const field = fc.constantFrom(
  'viewer { name }',
  'assetMarkets(limit: 2) { total items { symbol price } }',
  'predictionMarkets(limit: 3) { count items { question signal } }',
  'movementAlerts(limit: 2) { items { deltaPts market { question } } }',
  'assetBrief(symbols: ["BTC/USD"]) { interval }',
  '__typename',
  '__schema { queryType { name } }',
  'nope',
  'assetMarkets(limit: -1) { total }',
  'predictionMarkets(limit: "x") { count }',
);
const graphqlQuery = fc.oneof(
  fc.array(field, { minLength: 1, maxLength: 4 }).map((fields) => `{ ${fields.join(' ')} }`),
  fc.integer({ min: 1, max: 40 }).map((n) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: viewer { name }`).join(' ')} }`),
  fc.integer({ min: 1, max: 40 }).map((n) => `{ movementAlerts { items { market { ${'... on PredictionMarket { '.repeat(n)} id ${'} '.repeat(n)} } } } }`),
  fc.string({ maxLength: 60 }),
  fc.constantFrom(
    'mutation { _noop }',
    'subscription { x }',
    '{',
    '}',
    'query A { viewer { name } } query B { viewer { name } }',
    `{ viewer { ${'name '.repeat(3_000)} } }`,
  ),
);
const graphqlBody = fc.oneof(
  fc
    .record(
      {
        query: graphqlQuery,
        variables: fc.option(fc.jsonValue({ maxDepth: 2 })),
        operationName: fc.option(fc.oneof(fc.string({ maxLength: 5 }), fc.constant('B'))),
      },
      { requiredKeys: ['query'] },
    )
    .map((b) => JSON.stringify(b)),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 80 }),
  fc.constantFrom(
    '[{"query":"{ viewer { name } }"},{"query":"{ viewer { name } }"}]',
    '{"query": {"nested": true}}',
    '{"query":"{ viewer { name } }","extensions":{"persistedQuery":{"version":1,"sha256Hash":"abc"}}}',
  ),
);
const graphqlRequest = fc
  .record({
    variant: fc.constantFrom('A' as const, 'B' as const),
    method: fc.constantFrom('POST', 'POST', 'POST', 'GET', 'PUT'),
    body: graphqlBody,
    auth: authorization,
    type: contentType,
    preflight: fc.boolean(),
  })
  .map(
    ({ variant, method, body, auth, type, preflight }): Sent => ({
      variant,
      method,
      path: method === 'GET' ? `/graphql?query=${enc(body)}` : '/graphql',
      headers: {
        ...(auth ? { authorization: auth.replace(/GOOD/g, goodKey) } : {}),
        ...(type ? { 'content-type': type } : {}),
        ...(preflight ? { 'apollo-require-preflight': 'true' } : {}),
      },
      ...(method === 'GET' ? {} : { body }),
    }),
  );

// --- deep and wide JSON, in every field and parameter -------------------------------------------

/** JSON text nested deep (arrays, objects, both) or made wide, within `maxBytes`. */
const hostileJson = (maxBytes: number) => {
  const upTo = (bytesEach: number) => fc.integer({ min: 1, max: Math.floor(maxBytes / bytesEach) });
  return fc.oneof(
    upTo(2).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
    upTo(6).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`),
    upTo(8).map((n) => `${'[{"a":'.repeat(n)}null${'}]'.repeat(n)}`),
    upTo(2).map((n) => `[${Array(n).fill('0').join(',')}]`),
    upTo(12).map((n) => `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`),
  );
};
/** A query that reads kept answers (their key is made of the variables), and one of a key's own data. */
const keptQuery = fc.constantFrom(
  '{ assetMarkets(limit: 2) { total } }',
  'query Q($limit: Int) { predictionMarkets(limit: $limit) { count } }',
  '{ viewer { name } }',
);
/** Every field of a /graphql POST body, and the body itself, with the hostile JSON in it. */
const deepPost = fc.tuple(keptQuery, hostileJson(90 * 1024), fc.integer({ min: 0, max: 8 })).map(([query, json, place]) => {
  const q = JSON.stringify(query);
  return [
    `{"query":${q},"variables":{"unused":${json}}}`,
    `{"query":${q},"variables":${json}}`,
    `{"query":${q},"variables":{"limit":${json}}}`,
    `{"query":${q},"extensions":${json}}`,
    `{"query":${q},"extensions":{"persistedQuery":${json}}}`,
    `{"query":${json}}`,
    `{"query":${q},"operationName":${json}}`,
    `{"documentId":${json}}`,
    place % 2 ? json : `[${json}]`,
  ][place]!;
});
/** A GET's parameters (variables, extensions, query, documentId), within the listener's 8 KB URL. */
const deepGet = fc.tuple(keptQuery, hostileJson(2 * 1024), fc.constantFrom('variables', 'extensions', 'query', 'documentId')).map(([query, json, name]) => {
  const params = new URLSearchParams({ query, [name]: name === 'variables' ? `{"unused":${json}}` : json });
  return `/graphql?${params}`;
});
const deepRequest = fc.oneof(
  fc.record({ variant: fc.constantFrom('A' as const, 'B' as const), body: deepPost }).map(
    ({ variant, body }): Sent => ({
      variant,
      method: 'POST',
      path: '/graphql',
      headers: { authorization: `Bearer ${goodKey}`, 'content-type': 'application/json' },
      body,
    }),
  ),
  fc
    .record({ variant: fc.constantFrom('A' as const, 'B' as const), path: deepGet })
    .map(({ variant, path }): Sent => ({ variant, method: 'GET', path, headers: { authorization: `Bearer ${goodKey}`, 'apollo-require-preflight': 'true' } })),
  // The REST facades' parameters and a body they never read.
  fc.record({ variant: fc.constantFrom('A' as const, 'B' as const), json: hostileJson(2 * 1024), name: paramName, path: apiPath, post: fc.boolean() }).map(
    ({ variant, json, name, path, post }): Sent => ({
      variant,
      method: post ? 'POST' : 'GET',
      path: `${path}?${enc(name)}=${enc(json)}`,
      headers: { authorization: `Bearer ${goodKey}`, ...(post ? { 'content-type': 'application/json' } : {}) },
      ...(post ? { body: json } : {}),
    }),
  ),
);

// --- the property -------------------------------------------------------------------------------

const LEAKS = /<html|\bat \S+ \(|node_modules|\/src\/|\.ts:\d+|stack/i;

function checkAnswer(req: Sent, res: { status: number; type: string; text: string }): void {
  const where = `${req.method} ${req.path.slice(0, 120)} -> ${res.status} ${res.text.slice(0, 200)}`;
  if (res.status >= 500) throw new Error(`5xx: ${where}`);
  if (req.method === 'HEAD') return; // headers only
  if (!res.type.startsWith('application/json')) throw new Error(`not JSON (${res.type}): ${where}`);
  const body = JSON.parse(res.text) as Record<string, unknown>;
  if (res.status === 200 && typeof body.openapi === 'string') return; // the public contract document
  if (LEAKS.test(res.text)) throw new Error(`internals leaked: ${where}`);
  const flag = req.variant === 'A' ? 'success' : 'ok';
  const isGraphQLResult = 'data' in body || Array.isArray(body.errors);
  const isEnvelope = typeof body[flag] === 'boolean' && (body[flag] === true || typeof (body.error as { message?: unknown })?.message === 'string');
  if (req.path.startsWith('/graphql') ? !(isGraphQLResult || (isEnvelope && res.status >= 400)) : !isEnvelope) throw new Error(`wrong envelope: ${where}`);
  if (isEnvelope && body[flag] === false && (body.error as { code: number }).code !== res.status) throw new Error(`code mismatch: ${where}`);
}

it(`${RUNS} generated requests over both facades and /graphql: no 5xx, every body JSON in its envelope`, async () => {
  const counts = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(fc.oneof({ weight: 3, arbitrary: restRequest }, { weight: 2, arbitrary: graphqlRequest }), async (req) => {
      const res = await send(req);
      counts.set(res.status, (counts.get(res.status) ?? 0) + 1);
      checkAnswer(req, res);
    }),
    { numRuns: RUNS, seed: Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31) },
  );
  const tried = [...counts.values()].reduce((a, b) => a + b, 0);
  console.log(`fuzz: ${tried} requests tried; by status ${JSON.stringify(Object.fromEntries([...counts].sort((a, b) => a[0] - b[0])))}`);
  expect(tried).toBeGreaterThanOrEqual(RUNS);
  // The generators reach deep: answers, refusals and limits all occur.
  for (const status of [200, 400, 401, 404, 405]) expect(counts.get(status) ?? 0).toBeGreaterThan(0);
}, 300_000);

it("deep and wide JSON in every /graphql body field and parameter and in the facades' parameters: a 4xx or an answer, never a 5xx", async () => {
  const counts = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(deepRequest, async (req) => {
      const res = await send(req);
      counts.set(res.status, (counts.get(res.status) ?? 0) + 1);
      checkAnswer(req, res);
    }),
    { numRuns: Math.min(RUNS, 400), seed: Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31) },
  );
  console.log(`fuzz, deep and wide JSON: by status ${JSON.stringify(Object.fromEntries([...counts].sort((a, b) => a[0] - b[0])))}`);
}, 300_000);

it('an unused variable nested 5 000 arrays deep: 400, in every transport that reads JSON', async () => {
  const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
  const body = `{"query":"{ assetMarkets(limit: 2) { total } }","variables":{"unused":${deep}}}`;
  const headers = { authorization: `Bearer ${goodKey}`, 'content-type': 'application/json' };
  const post = await send({ variant: 'A', method: 'POST', path: '/graphql', headers, body });
  expect(post.status).toBe(400);
  expect(post.text).toContain('request JSON nested deeper than 64 levels'); // in whichever shape /graphql answers a body it refuses
  const get = await send({
    variant: 'A',
    method: 'GET',
    path: `/graphql?${new URLSearchParams({ query: '{ viewer { name } }', variables: `{"unused":${'['.repeat(1_000)}${']'.repeat(1_000)}}` })}`,
    headers: { authorization: headers.authorization, 'apollo-require-preflight': 'true' },
  });
  expect(get.status).toBe(400);
  expect(get.text).toContain('request JSON nested deeper than 64 levels');
  // Server-Sent Events read their body with graphql-sse: the subscription gate bounds the variables it hands on.
  const subscription = body.replace('{ assetMarkets(limit: 2) { total } }', 'subscription { quotes(symbols: [\\"BTC/USD\\"]) { symbol } }');
  const streamed = await new Promise<{ status: number }>((resolve, reject) => {
    const r = http.request(
      {
        host: '127.0.0.1',
        port: ports.A,
        method: 'POST',
        path: '/graphql/stream',
        headers: { ...headers, accept: 'text/event-stream', 'content-length': Buffer.byteLength(subscription) },
      },
      (res) => {
        resolve({ status: res.statusCode! });
        res.destroy();
      },
    );
    r.on('error', reject);
    r.end(subscription);
  });
  expect(streamed.status).toBe(400);
});
