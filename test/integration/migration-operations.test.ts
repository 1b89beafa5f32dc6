/**
 * The migration kit's first half (docs/migration.md): every REST answer names the GraphQL operation
 * that produced it, the listener serves that operation's document, and the document run on
 * /graphql with the route's own variables gives the data the route reshaped, so a client team can
 * move one call at a time and compare.
 */
import type supertest from 'supertest';
import { checkParams, parseRawQuery } from '../../src/rest/params.js';
import type { RouteDefinition } from '../../src/rest/route-table.js';
import { ROUTES_OF } from '../../src/rest/routes/by-variant.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { CREATE_PRICE_ALERT, graphqlPost, priceAlertAbove } from '../support/graphql-call.js';

let t: TestService;
let key: string;
beforeAll(async () => {
  t = await startTestService();
  key = (await t.createKey('enterprise', 'pro')).key;
  // An alert of the caller's, so that A's /alerts has something to reshape.
  const quote = t.service.markets.quote('BTC/USD')!;
  const created = await graphqlPost(t.a, key, CREATE_PRICE_ALERT, priceAlertAbove(quote.price * 2));
  expect(created.body.errors).toBeUndefined();
});
afterAll(() => t?.close());

type Listener = 'a' | 'b';
const ROUTES = ROUTES_OF;

/** A real request per route (the query a client would send), whose answer is not empty. */
const QUERIES: Record<string, string> = {
  'A /markets': '?type=crypto&limit=5&offset=1',
  'A /brief': '?symbols=btc/usd,ETH/USD&interval=4h&limit=2',
  'A /alerts': '?status=active',
  'B /markets': '',
  'B /brief': '',
  'B /alerts': '?limit=3',
};

/** A request each route refuses with 400 (none for routes without parameters). */
const REFUSED: Record<string, string> = {
  'A /markets': '?limit=0',
  'A /brief': '',
  'A /alerts': '?status=nope',
  'B /alerts': '?limit=0',
};

const CASES = (['A', 'B'] as const).flatMap((variant) => ROUTES[variant].map((route) => [`${variant} ${route.path}`, variant, route] as const));

const agentOf = (variant: 'A' | 'B'): supertest.Agent => t[variant.toLowerCase() as Listener];

describe.each(CASES)('%s', (name, variant, route: RouteDefinition) => {
  const url = `/api/v1${route.path}${QUERIES[name]}`;

  it('names its operation on every answer once the route is known (200, 304, 400, 403), not before (401)', async () => {
    const agent = agentOf(variant);
    const ok = await agent.get(url).set(bearer(key));
    expect(ok.status).toBe(200);
    const operation = ok.headers['x-graphql-operation'];
    expect(operation).toMatch(/^[A-Z]\w+$/);
    const notModified = await agent.get(url).set(bearer(key)).set('If-None-Match', ok.headers.etag!);
    expect([notModified.status, notModified.headers['x-graphql-operation']]).toEqual([304, operation]);
    const head = await agent.head(url).set(bearer(key));
    expect([head.status, head.headers['x-graphql-operation']]).toEqual([200, operation]);
    const { key: noPlan } = await t.createKey('free', 'none');
    const forbidden = await agent.get(url).set(bearer(noPlan));
    if (forbidden.status === 403) expect(forbidden.headers['x-graphql-operation']).toBe(operation);
    else expect([variant, route.path]).toEqual(['A', '/markets']); // every plan may read A's markets
    if (REFUSED[name] !== undefined) {
      const bad = await agent.get(`/api/v1${route.path}${REFUSED[name]}`).set(bearer(key));
      expect([bad.status, bad.headers['x-graphql-operation']]).toEqual([400, operation]);
    } else expect(route.params).toEqual([]);
    const unauthorized = await agent.get(url);
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers['x-graphql-operation']).toBeUndefined();
  });

  it('its operation document, run on /graphql with the variables the route used, gives the data the route reshaped', async () => {
    const agent = agentOf(variant);
    const rest = await agent.get(url).set(bearer(key));
    expect(rest.status).toBe(200);
    const document = await agent.get(`/graphql/operations/${rest.headers['x-graphql-operation']}.graphql`);
    expect(document.status).toBe(200);
    expect(document.headers['content-type']).toBe('text/plain; charset=utf-8');
    const text = document.text;
    expect(text).toMatch(new RegExp(`^query ${rest.headers['x-graphql-operation']}\\b`));

    const params = checkParams(route.params, parseRawQuery(url.slice('/api/v1'.length)));
    if (params instanceof Error) throw params;
    const variables = route.variables(params);
    const graphql = await agent.post('/graphql').set(bearer(key)).send({ query: text, variables });
    expect(graphql.status).toBe(200);
    expect(graphql.body.errors).toBeUndefined();
    // Reshaped by the route's own function, the /graphql answer is the REST answer, whole.
    expect(route.reshape(graphql.body.data, params)).toEqual(rest.body);
    // ...and not by accident: the answer has data in it.
    expect(JSON.stringify(rest.body)).toMatch(/"(symbol|question|brief)"/);
  });
});

describe('/graphql/operations', () => {
  it("serves each listener its own facade's documents, with a strong ETag and 304; HEAD has the headers only; no key needed", async () => {
    for (const variant of ['A', 'B'] as const) {
      const agent = agentOf(variant);
      const openapi = (await agent.get('/api/v1/openapi.json')).body;
      for (const route of ROUTES[variant]) {
        const declared = openapi.paths[`/api/v1${route.path}`].get['x-graphql-operation'];
        expect(declared).toEqual({
          name: expect.any(String),
          document: expect.any(String),
          href: `/graphql/operations/${declared.name}.graphql`,
          sha256: expect.any(String),
        });
        const served = await agent.get(declared.href);
        expect(served.status).toBe(200);
        // The OpenAPI document carries the text exactly as served.
        expect(served.text).toBe(declared.document);
        expect(served.headers.etag).toBe(`"${declared.sha256}"`);
        expect(served.headers['x-content-type-options']).toBe('nosniff');
        const again = await agent.get(declared.href).set('If-None-Match', served.headers.etag!);
        expect([again.status, again.text]).toEqual([304, '']);
        const head = await agent.head(declared.href);
        expect([head.status, head.headers['content-length'], head.text]).toEqual([200, String(Buffer.byteLength(declared.document)), undefined]);
      }
    }
  });

  it("an unknown name is a 404 in the variant's envelope, naming the documents there are", async () => {
    const a = await t.a.get('/graphql/operations/TopPredictionMarkets.graphql');
    expect(a.status).toBe(404);
    expect(a.body).toEqual({ success: false, error: { code: 404, type: 'not_found', message: expect.stringMatching(/MarketsPage, Brief, AccountAlerts/) } });
    const b = await t.b.get('/graphql/operations/MorningBrief');
    expect(b.status).toBe(404);
    expect(b.body).toEqual({ ok: false, error: { code: 404, type: 'not_found', message: expect.stringMatching(/TopPredictionMarkets/) } });
  });
});

describe('under TRUSTED_DOCUMENTS=enforce', () => {
  let enforced: TestService;
  beforeAll(async () => {
    enforced = await startTestService({ env: { TRUSTED_DOCUMENTS: 'enforce' } });
  });
  afterAll(() => enforced?.close());

  it("every served document runs on /graphql for a key that is not exempt (they are the routes' own operations); an edited one is refused", async () => {
    const { key: plain } = await enforced.createKey('pro', 'pro');
    for (const variant of ['A', 'B'] as const) {
      const agent = enforced[variant.toLowerCase() as Listener];
      for (const route of ROUTES[variant]) {
        const params = checkParams(route.params, parseRawQuery(`/x${QUERIES[`${variant} ${route.path}`]}`));
        if (params instanceof Error) throw params;
        const name = (await agent.get(`/api/v1${route.path}${QUERIES[`${variant} ${route.path}`]}`).set(bearer(plain))).headers['x-graphql-operation'];
        const text = (await agent.get(`/graphql/operations/${name}.graphql`)).text;
        const run = await agent
          .post('/graphql')
          .set(bearer(plain))
          .send({ query: text, variables: route.variables(params) });
        expect([name, run.status, run.body.errors]).toEqual([name, 200, undefined]);
        const edited = await agent
          .post('/graphql')
          .set(bearer(plain))
          .send({ query: `${text}\n`, variables: route.variables(params) });
        expect(edited.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');
      }
    }
  });
});
