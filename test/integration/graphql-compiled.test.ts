/**
 * The compiled fast path of /graphql answers exactly as Apollo does. A query sent by GET always
 * goes to Apollo, so each case is sent both ways (POST and GET) and the answers compared.
 */
import { answeredBy } from '../support/graphql-paths.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t?.close());

/** A request without a working key is always Apollo's: only known callers get texts compiled. */
async function bothWays(key: string | null, query: string, variables?: unknown, port: 'a' | 'b' = 'b', compiles = key !== null, accept?: string) {
  const send = (body: Record<string, unknown>) => {
    const req = t[port].post('/graphql').set('Content-Type', 'application/json');
    if (key) req.set(bearer(key));
    if (accept) req.set('Accept', accept);
    return req.send(body);
  };
  /** The same query by GET (with the preflight header Apollo's CSRF prevention asks for): always Apollo's. */
  const get = () => {
    const search = new URLSearchParams({ query, ...(variables === undefined ? {} : { variables: JSON.stringify(variables) }) });
    const req = t[port].get(`/graphql?${search}`).set('apollo-require-preflight', '1');
    if (key) req.set(bearer(key));
    if (accept) req.set('Accept', accept);
    return req;
  };
  const before = await answeredBy(t.b);
  const compiled = await send({ query, variables });
  const apollo = await get();
  // Each path really answered one of the two: the comparison is not Apollo against itself.
  expect(await answeredBy(t.b)).toEqual(
    compiles ? { compiled: before.compiled + 1, apollo: before.apollo + 1 } : { compiled: before.compiled, apollo: before.apollo + 2 },
  );
  return { compiled, apollo };
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

describe.each(ACCEPTS)('compiled and Apollo answers are the same (%s)', (_client, accept) => {
  it.each(CASES)('%s', async (_name, query, variables) => {
    const { key } = await t.createKey('enterprise', 'pro');
    const { compiled, apollo } = await bothWays(key, query, variables, 'b', true, accept);
    expect(compiled.status).toBe(apollo.status);
    expect(compiled.body).toEqual(apollo.body);
    expect(compiled.headers['content-type']).toBe(apollo.headers['content-type']);
    expect(compiled.headers['x-ratelimit-limit']).toBe(apollo.headers['x-ratelimit-limit']);
  });
});

describe('the edge and the limits, both ways', () => {
  it('the edge refuses alike: no key (401), a lower plan (403), the quota spent (429)', async () => {
    const query = '{ predictionMarkets(limit: 1) { count } }';
    const none = await bothWays(null, query);
    expect(none.compiled.status).toBe(401);
    expect(none.compiled.body).toEqual(none.apollo.body);

    const marketOnly = await t.createKey('enterprise', 'none');
    const forbidden = await bothWays(marketOnly.key, query);
    expect(forbidden.compiled.status).toBe(403);
    expect(forbidden.compiled.body).toEqual(forbidden.apollo.body);

    const free = await t.createKey('free');
    for (let i = 0; i < 10; i++) await t.a.get('/api/v1/markets?limit=1').set(bearer(free.key));
    const limited = await bothWays(free.key, '{ assetMarkets(limit: 1) { total } }', undefined, 'a');
    expect(limited.compiled.status).toBe(429);
    expect(limited.compiled.body).toEqual(limited.apollo.body);
    expect(limited.compiled.headers['retry-after']).toBe(limited.apollo.headers['retry-after']);
  });

  it('a field refused by its own limit: the same 429 both ways', async () => {
    const { key } = await t.createKey('enterprise', 'pro');
    const briefs = `{ ${Array.from({ length: 15 }, (_, i) => `b${i}: morningBrief { date }`).join(' ')} }`;
    for (let i = 0; i < 4; i++) await t.b.post('/graphql').set(bearer(key)).send({ query: briefs }); // 60, the limit
    const { compiled, apollo } = await bothWays(key, '{ morningBrief { date } }');
    expect(compiled.status).toBe(429);
    expect(compiled.status).toBe(apollo.status);
    expect(compiled.body).toEqual(apollo.body);
    expect(JSON.stringify(compiled.body)).not.toMatch(/"http"/);
  });

  it("the content type follows the Accept header; one that accepts neither JSON type is Apollo's 406", async () => {
    const { key } = await t.createKey('enterprise', 'pro');
    const ask = (accept: string) => t.b.post('/graphql').set(bearer(key)).set('Accept', accept).send({ query: '{ viewer { name } }' });
    const before = await answeredBy(t.b);
    expect((await ask('application/graphql-response+json')).headers['content-type']).toBe('application/graphql-response+json; charset=utf-8');
    expect((await ask('application/json, application/graphql-response+json;q=0.5')).headers['content-type']).toBe('application/json; charset=utf-8');
    expect((await ask('*/*')).headers['content-type']).toBe('application/json; charset=utf-8');
    expect(await answeredBy(t.b)).toEqual({ compiled: before.compiled + 3, apollo: before.apollo });
    const refused = await ask('text/csv');
    expect(refused.status).toBe(406);
    expect(await answeredBy(t.b)).toEqual({ compiled: before.compiled + 3, apollo: before.apollo + 1 });
  });

  it("/graphql on each listener counts its refusals under that listener's variant, whichever path answers", async () => {
    const rejections = async (variant: 'A' | 'B') =>
      Number(new RegExp(`mgw_quota_rejections_total\\{variant="${variant}",product="marketData"\\} (\\d+)`).exec((await t.a.get('/metrics')).text)?.[1] ?? 0);
    const free = await t.createKey('free');
    for (let i = 0; i < 10; i++) await t.b.post('/graphql').set(bearer(free.key)).send({ query: '{ assetMarkets(limit: 1) { total } }' });
    const [a, b] = [await rejections('A'), await rejections('B')];
    // One refusal on each path, both on B's listener.
    await bothWays(free.key, '{ assetMarkets(limit: 1) { total } }', undefined, 'b');
    expect([await rejections('A'), await rejections('B')]).toEqual([a, b + 2]);
  });

  it("a client's own extensions keep the fast path; a persisted query is Apollo's", async () => {
    const { key } = await t.createKey('enterprise', 'pro');
    const post = (extensions: unknown) => t.b.post('/graphql').set(bearer(key)).send({ query: '{ viewer { name } }', extensions });
    const before = await answeredBy(t.b);
    expect((await post({ clientLibrary: { name: '@apollo/client', version: '4' } })).status).toBe(200);
    expect(await answeredBy(t.b)).toEqual({ compiled: before.compiled + 1, apollo: before.apollo });
    await post({ persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } });
    expect(await answeredBy(t.b)).toEqual({ compiled: before.compiled + 1, apollo: before.apollo + 1 });
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
    expect(malformed.body).toEqual({ ok: false, error: expect.objectContaining({ message: 'malformed JSON body' }) });
  });
});
