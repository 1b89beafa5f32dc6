/**
 * GraphQL abuse is refused with 400 before any resolver runs (no quota spent), on Apollo and on
 * the compiled path alike; introspection and suggestions follow the configuration; batching is
 * off and CSRF prevention on.
 */
import { GRAPHQL_LIMITS } from '../../src/graphql/catalogue/guards.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

let dev: TestService;
let prod: TestService;
beforeAll(async () => {
  dev = await startTestService();
  prod = await startTestService({ env: { NODE_ENV: 'production' } });
});
afterAll(async () => {
  await dev?.close();
  await prod?.close();
});

const post = (t: TestService, key: string | null, body: unknown) => {
  const req = t.b.post('/graphql').set('Content-Type', 'application/json');
  if (key) req.set(bearer(key));
  return req.send(body as object);
};

// Each with the message of the limit it breaks, so a query refused for another reason fails the test.
const ABUSE: [string, () => string, RegExp][] = [
  ['too many aliases', () => `{ ${Array.from({ length: GRAPHQL_LIMITS.maxAliases + 1 }, (_, i) => `a${i}: viewer { name }`).join(' ')} }`, /aliases/i],
  ['too many tokens', () => `{ viewer { ${'name '.repeat(GRAPHQL_LIMITS.maxTokens)} } }`, /tokens/i],
  [
    'too costly',
    () =>
      `{ ${Array.from({ length: GRAPHQL_LIMITS.maxAliases }, (_, i) => `m${i}: movementAlerts(limit: 100) { items { id deltaPts oldPct newPct detectedAt market { id question probability probabilityPct volume24h signal url source } } }`).join(' ')} }`,
    /cost/i,
  ],
  [
    'too deep',
    () =>
      `{ movementAlerts(limit: 1) { items { market { ${'... on PredictionMarket { '.repeat(GRAPHQL_LIMITS.maxDepth)} id ${'} '.repeat(GRAPHQL_LIMITS.maxDepth)} } } } }`,
    /depth/i,
  ],
];

describe('limits on a document: 400 before any resolver', () => {
  it.each(ABUSE)('%s', async (_name, query, reason) => {
    const { key } = await dev.createKey('enterprise', 'pro');
    for (const extensions of [undefined, {}]) {
      // Without `extensions` a valid query would take the compiled path; with them, Apollo's.
      const res = await post(dev, key, { query: query(), ...(extensions ? { extensions } : {}) });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(res.body.errors[0].message).toMatch(reason);
      expect(res.body.data).toBeUndefined();
      expect(res.headers['x-ratelimit-remaining']).toBeUndefined(); // the edge never ran: nothing spent
    }
  });

  it('a legitimate dashboard query stays well inside every limit', async () => {
    const { key } = await dev.createKey('enterprise', 'pro');
    const res = await post(dev, key, {
      query:
        '{ predictionMarkets(limit: 50) { count items { question probability volume24h signal } } movementAlerts(limit: 100) { items { deltaPts market { question } } } }',
    });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
  });
});

describe('what the schema reveals', () => {
  it('introspection and suggestions are on in development (Sandbox works)', async () => {
    expect((await post(dev, null, { query: '{ __schema { queryType { name } } }' })).body.data.__schema.queryType.name).toBe('Query');
    const { key } = await dev.createKey('enterprise', 'pro');
    const typo = await post(dev, key, { query: '{ predictionMarkets { cont } }' });
    expect(typo.body.errors[0].message).toMatch(/Did you mean "count"/);
  });

  it('both are off in production', async () => {
    const introspection = await post(prod, null, { query: '{ __schema { queryType { name } } }' });
    expect(introspection.status).toBe(400);
    expect(introspection.body.data).toBeUndefined();
    const { key } = await prod.createKey('enterprise', 'pro');
    const typo = await post(prod, key, { query: '{ predictionMarkets { cont } }' });
    expect(typo.status).toBe(400);
    expect(typo.body.errors[0].message).not.toMatch(/count/);
  });

  it('GRAPHQL_INTROSPECTION=on turns it back on in production, for an internal deployment', async () => {
    const t = await startTestService({ env: { NODE_ENV: 'production', GRAPHQL_INTROSPECTION: 'on' } });
    try {
      expect((await post(t, null, { query: '{ __schema { queryType { name } } }' })).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('transport', () => {
  it('batched requests are refused', async () => {
    const { key } = await dev.createKey('enterprise', 'pro');
    const res = await post(dev, key, [{ query: '{ viewer { name } }' }, { query: '{ viewer { name } }' }]);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/batch/i);
  });

  it('CSRF prevention: a simple request (text/plain, no preflight header) is refused', async () => {
    const res = await dev.b.get('/graphql?query=%7B%20viewer%20%7B%20name%20%7D%20%7D');
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/CSRF|preflight/i);
  });
});
