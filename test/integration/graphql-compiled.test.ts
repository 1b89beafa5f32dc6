/**
 * /graphql answers exactly as stock Apollo Server would over the same schema, data and error
 * formatter: every query that reads data runs compiled (graphql-jit) from the catalogue, so each
 * case is sent to the listener and to a stock Apollo Server in-process, and the answers compared.
 * GET (by text, by persisted id) and POST give the same answer.
 */
import { ApolloServer, HeaderMap } from '@apollo/server';
import pino from 'pino';
import { hashApiKey } from '../../src/auth/api-key.js';
import { createClassifier } from '../../src/edge/classify.js';
import { createDegradedAnswers } from '../../src/edge/degraded.js';
import { operationId } from '../../src/graphql/catalogue/prepare.js';
import { createLoaders } from '../../src/graphql/loaders.js';
import { createErrorFormatter } from '../../src/graphql-http/apollo-server.js';
import { answeredBy } from '../support/graphql-paths.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

let t: TestService;
let stock: ApolloServer;
beforeAll(async () => {
  t = await startTestService();
  const silent = pino({ level: 'silent' });
  // Stock Apollo with the service's own formatter (the codes of D12), and nothing else of ours.
  stock = new ApolloServer({
    schema: t.service.schema,
    formatError: createErrorFormatter({ classify: createClassifier(createDegradedAnswers(silent), silent) }),
  });
  await stock.start();
});
afterAll(async () => {
  await stock?.stop();
  await t?.close();
});

/** Stock Apollo's answer to the same POST, run for the key's account. */
async function stockAnswer(key: string, query: string, variables: unknown, accept: string | undefined) {
  const found = (await t.service.store.accounts.findKeyByHash(hashApiKey(key)))!;
  const headers = new HeaderMap([['content-type', 'application/json']]);
  if (accept) headers.set('accept', accept);
  const answer = await stock.executeHTTPGraphQLRequest({
    httpGraphQLRequest: { method: 'POST', headers, search: '', body: { query, ...(variables === undefined ? {} : { variables }) } },
    context: async () => ({
      principal: { keyId: found.keyId, account: found.account },
      services: t.service.services,
      loaders: createLoaders(t.service.services),
      transport: 'graphql' as const,
      responseHeaders: {},
    }),
  });
  return {
    status: answer.status ?? 200,
    body: JSON.parse(answer.body.kind === 'complete' ? answer.body.string : ''),
    type: answer.headers.get('content-type'),
  };
}

/** The same question by POST (with its APQ hash), by GET with its text, and by GET with its persisted id alone. */
async function threeWays(key: string | null, query: string, variables?: unknown, port: 'a' | 'b' = 'b', accept?: string) {
  const withKey = <T extends { set(name: string, value: string): T }>(req: T) => {
    let out = key ? req.set('Authorization', `Bearer ${key}`) : req;
    if (accept) out = out.set('Accept', accept);
    return out;
  };
  const vars: Record<string, string> = variables === undefined ? {} : { variables: JSON.stringify(variables) };
  const persistedQuery = { version: 1, sha256Hash: operationId(query) };
  // The POST registers the text under its hash, as Apollo Client's persisted-queries link does.
  const post = await withKey(t[port].post('/graphql').set('Content-Type', 'application/json')).send({ query, variables, extensions: { persistedQuery } });
  const get = await withKey(t[port].get(`/graphql?${new URLSearchParams({ query, ...vars })}`).set('apollo-require-preflight', '1'));
  const extensions = JSON.stringify({ persistedQuery });
  const byId = await withKey(t[port].get(`/graphql?${new URLSearchParams({ extensions, ...vars })}`).set('apollo-require-preflight', '1'));
  return { post, get, byId };
}

// Three entries each: with fewer, it.each would hand the test a `done` callback for `variables`.
const CASES: [string, string, unknown][] = [
  [
    "B markets, the dashboards' query",
    '{ predictionMarkets(limit: 50) { count items { question probability probabilityPct volume24h signal url source } } }',
    undefined,
  ],
  ['variables and a named operation', 'query Top($n: Int!) { predictionMarkets(limit: $n) { count items { id question } } }', { n: 3 }],
  [
    'nested fields through a DataLoader, with __typename',
    '{ movementAlerts(limit: 5) { items { __typename deltaPts market { question signal } } } }',
    undefined,
  ],
  ['an argument the resolver refuses (errors, data null)', '{ predictionMarkets(limit: 51) { count } }', undefined],
  ['variables that do not coerce (400)', 'query($n: Int!) { predictionMarkets(limit: $n) { count } }', { n: 'many' }],
  ['a variable left out (400)', 'query($n: Int!) { predictionMarkets(limit: $n) { count } }', {}],
  ['the viewer', '{ viewer { accountId marketDataPlan predictionPlan } }', undefined],
];

/** What real clients send: none (curl), Apollo Client 4's, graphql-request 7's. */
const ACCEPTS: [string, string | undefined][] = [
  ['no Accept', undefined],
  ['Apollo Client', 'application/graphql-response+json,application/json;q=0.9'],
  ['graphql-request', 'application/graphql-response+json, application/json'],
];

describe.each(ACCEPTS)('the answers of stock Apollo Server, every way (%s)', (_client, accept) => {
  it.each(CASES)('%s', async (_name, query, variables) => {
    const { key } = await t.createKey('enterprise', 'pro');
    const before = await answeredBy(t.b);
    const { post, get, byId } = await threeWays(key, query, variables, 'b', accept);
    const expected = await stockAnswer(key, query, variables, accept);
    for (const answer of [post, get, byId]) {
      expect(answer.status).toBe(expected.status);
      expect(answer.body).toEqual(expected.body);
      expect(answer.headers['content-type']).toBe(expected.type);
      expect(answer.headers['x-ratelimit-limit']).toBe(post.headers['x-ratelimit-limit']);
    }
    // All three ran compiled (unless their variables were refused first): Apollo executes no query that reads data.
    expect(await answeredBy(t.b)).toEqual({ compiled: before.compiled + (expected.status === 400 ? 0 : 3), apollo: before.apollo });
  });
});

describe('the edge and the limits, every way', () => {
  it('the edge refuses alike: no key (401), a lower plan (403), the quota spent (429)', async () => {
    const query = '{ predictionMarkets(limit: 1) { count } }';
    const none = await threeWays(null, query);
    expect(none.post.status).toBe(401);
    expect(none.get.body).toEqual(none.post.body);
    expect(none.post.body.errors[0].extensions).toEqual({ code: 'UNAUTHENTICATED' });

    const marketOnly = await t.createKey('enterprise', 'none');
    const forbidden = await threeWays(marketOnly.key, query);
    expect(forbidden.post.status).toBe(403);
    expect(forbidden.get.body).toEqual(forbidden.post.body);
    expect(forbidden.byId.body).toEqual(forbidden.post.body);

    const free = await t.createKey('free');
    for (let i = 0; i < 10; i++) await t.a.get('/api/v1/markets?limit=1').set(bearer(free.key));
    const limited = await threeWays(free.key, '{ assetMarkets(limit: 1) { total } }', undefined, 'a');
    expect(limited.post.status).toBe(429);
    expect(limited.get.body).toEqual(limited.post.body);
    expect(limited.get.headers['retry-after']).toBe(limited.post.headers['retry-after']);
  });

  it('a field refused by its own limit: 429, as stock Apollo answers it', async () => {
    const { key } = await t.createKey('enterprise', 'pro');
    const briefs = `{ ${Array.from({ length: 15 }, (_, i) => `b${i}: morningBrief { date }`).join(' ')} }`;
    for (let i = 0; i < 4; i++) await t.b.post('/graphql').set(bearer(key)).send({ query: briefs }); // 60, the limit
    const { post, get } = await threeWays(key, '{ morningBrief { date } }');
    expect(post.status).toBe(429);
    expect(get.status).toBe(429);
    expect(post.body).toEqual({ data: null, errors: [expect.objectContaining({ extensions: { code: 'RATE_LIMITED' } })] });
    expect(JSON.stringify(post.body)).not.toMatch(/"http"/);
  });

  it('a GET answers with a strong ETag, and If-None-Match with 304, like the REST routes', async () => {
    const { key } = await t.createKey('enterprise', 'pro');
    const query = '{ predictionMarkets(limit: 3) { count items { id } } }';
    const { byId } = await threeWays(key, query);
    expect(byId.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(byId.headers['cache-control']).toBe('private, no-cache');
    const extensions = JSON.stringify({ persistedQuery: { version: 1, sha256Hash: operationId(query) } });
    const again = await t.b
      .get(`/graphql?${new URLSearchParams({ extensions })}`)
      .set(bearer(key))
      .set('If-None-Match', byId.headers.etag!);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });

  it("a mutation by GET is refused 405 before anything is spent; a mutation by POST is Apollo's", async () => {
    const { key } = await t.createKey('enterprise', 'pro');
    const before = await answeredBy(t.a);
    const refused = await t.a.get(`/graphql?${new URLSearchParams({ query: 'mutation { _noop }' })}`).set(bearer(key));
    expect(refused.status).toBe(405);
    expect(refused.headers.allow).toBe('POST');
    expect(refused.headers['x-ratelimit-remaining']).toBeUndefined();
    expect((await t.a.post('/graphql').set(bearer(key)).send({ query: 'mutation { _noop }' })).status).toBe(200);
    expect(await answeredBy(t.a)).toEqual({ compiled: before.compiled, apollo: before.apollo + 1 });
  });
  it("the content type follows the Accept header; one that accepts neither JSON type is Apollo's 406, said before anything runs", async () => {
    const { key } = await t.createKey('enterprise', 'pro');
    const ask = (accept: string) => t.b.post('/graphql').set(bearer(key)).set('Accept', accept).send({ query: '{ viewer { name } }' });
    const before = await answeredBy(t.b);
    expect((await ask('application/graphql-response+json')).headers['content-type']).toBe('application/graphql-response+json; charset=utf-8');
    expect((await ask('application/json, application/graphql-response+json;q=0.5')).headers['content-type']).toBe('application/json; charset=utf-8');
    expect((await ask('*/*')).headers['content-type']).toBe('application/json; charset=utf-8');
    expect(await answeredBy(t.b)).toEqual({ compiled: before.compiled + 3, apollo: before.apollo });
    const refused = await ask('text/csv');
    expect(refused.status).toBe(406);
    expect(JSON.parse(refused.text)).toEqual({
      errors: [
        { message: expect.stringMatching(/does not accept application\/json or application\/graphql-response\+json/), extensions: { code: 'BAD_USER_INPUT' } },
      ],
    });
    expect(refused.headers['x-ratelimit-remaining']).toBeUndefined(); // nothing spent, nothing run
    expect(await answeredBy(t.b)).toEqual({ compiled: before.compiled + 3, apollo: before.apollo });
  });

  it('what Apollo would refuse or ignore in a request: a GET parameter given twice is 400; a documentId that is not a string is ignored', async () => {
    const { key } = await t.createKey('enterprise', 'pro');
    const twice = await t.b.get('/graphql?query=%7Bviewer%7Bname%7D%7D&query=%7Bviewer%7BaccountId%7D%7D').set(bearer(key));
    expect(twice.status).toBe(400);
    expect(twice.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const ignored = await t.b.post('/graphql').set(bearer(key)).send({ query: '{ viewer { name } }', documentId: 5 });
    expect(ignored.status).toBe(200);
    expect(ignored.body.data.viewer.name).toEqual(expect.any(String));
  });

  it("/graphql on each listener counts its refusals under that listener's variant, whichever way it is asked", async () => {
    const rejections = async (variant: 'A' | 'B') =>
      Number(new RegExp(`mgw_quota_rejections_total\\{variant="${variant}",product="marketData"\\} (\\d+)`).exec((await t.a.get('/metrics')).text)?.[1] ?? 0);
    const free = await t.createKey('free');
    for (let i = 0; i < 10; i++) await t.b.post('/graphql').set(bearer(free.key)).send({ query: '{ assetMarkets(limit: 1) { total } }' });
    const [a, b] = [await rejections('A'), await rejections('B')];
    // One refusal each way, all on B's listener.
    await threeWays(free.key, '{ assetMarkets(limit: 1) { total } }', undefined, 'b');
    expect([await rejections('A'), await rejections('B')]).toEqual([a, b + 3]);
  });

  it("a client's own extensions keep the fast path; a persisted query runs compiled once registered", async () => {
    const { key } = await t.createKey('enterprise', 'pro');
    const query = '{ viewer { name } }';
    const post = (extensions: unknown, text: string | null = query) =>
      t.b
        .post('/graphql')
        .set(bearer(key))
        .send({ ...(text === null ? {} : { query: text }), extensions });
    const before = await answeredBy(t.b);
    expect((await post({ clientLibrary: { name: '@apollo/client', version: '4' } })).status).toBe(200);
    const hash = { persistedQuery: { version: 1, sha256Hash: operationId(`${query} `) } };
    expect((await post(hash, null)).body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect((await post(hash, `${query} `)).status).toBe(200);
    expect((await post(hash, null)).body.data).toEqual({ viewer: { name: expect.any(String) } });
    expect(await answeredBy(t.b)).toEqual({ compiled: before.compiled + 3, apollo: before.apollo });
  });

  it('the compiled path spends the quota once per request, as Apollo does', async () => {
    const free = await t.createKey('free');
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.a.post('/graphql').set(bearer(free.key)).send({ query: '{ assetMarkets(limit: 1) { total } }' });
      remaining.push(String(res.headers['x-ratelimit-remaining']));
    }
    expect(remaining).toEqual(['9', '8', '7']);
  });

  it('a body over 100 KB is 413 and malformed JSON is 400, never a stack trace', async () => {
    const big = await t.b
      .post('/graphql')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ query: `{ viewer { accountId } } #${'x'.repeat(110_000)}` }));
    expect(big.status).toBe(413);
    const malformed = await t.b.post('/graphql').set('Content-Type', 'application/json').send('{"query": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ errors: [expect.objectContaining({ message: expect.stringMatching(/^the request body is not valid JSON/) })] });
    expect(big.body.errors[0].message).toBe('request body too large (at most 102400 bytes)');
  });

  it('a chunked body (no declared length) over 100 KB is 413 too', async () => {
    const chunk = new TextEncoder().encode(`{"query": "{ viewer { accountId } } #${'x'.repeat(20_000)}`);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 8) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await fetch(`${t.urls.b}/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
  });

  it('reads the body as UTF-8, a leading byte order mark ignored', async () => {
    const { key } = await t.createKey('enterprise', 'pro');
    // Raw bytes, as a client writes them (supertest would serialize a Buffer as JSON).
    const post = (bytes: Buffer) =>
      fetch(`${t.urls.b}/graphql`, { method: 'POST', headers: { ...bearer(key), 'Content-Type': 'application/json' }, body: bytes });
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const res = await post(Buffer.concat([bom, Buffer.from(JSON.stringify({ query: '{ viewer { name } }' }))]));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: unknown }).data).toEqual({ viewer: { name: expect.any(String) } });
    // The value of a variable arrives intact, as the refusal that quotes it shows.
    const refused = await post(
      Buffer.from(JSON.stringify({ query: 'query ($n: Int!) { predictionMarkets(limit: $n) { count } }', variables: { n: 'Zürich€' } })),
    );
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { errors: { message: string }[] }).errors[0]!.message).toContain('"Zürich€"');
  });
});
