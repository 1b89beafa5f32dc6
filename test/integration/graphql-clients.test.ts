/**
 * /graphql as the two most common clients use it: Apollo Client 4 and graphql-request 7, over real
 * HTTP, with their own Accept headers. Their queries must be answered, with the data REST gives,
 * by the compiled fast path (counted on /metrics), and their errors must reach them as GraphQL errors.
 */
import { createHash } from 'node:crypto';
import { ApolloClient, ApolloLink, CombinedGraphQLErrors, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { ClientError, GraphQLClient } from 'graphql-request';
import { answeredBy } from '../support/graphql-paths.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t?.close());

const TOP = 'query Top($n: Int!) { predictionMarkets(limit: $n) { count items { question probabilityPct volume24h } } }';
const MARKETS = 'query Crypto { assetMarkets(filter: { type: CRYPTO }, limit: 5) { total items { symbol price } } }';

/** What B's REST /markets shows, in GraphQL's field names: the same data both ways. */
async function restTop(key: string, n: number) {
  const body = (await t.b.get('/api/v1/markets').set(bearer(key))).body as { markets: { question: string; prob_pct: number; volume_24h: number }[] };
  return body.markets.slice(0, n).map((m) => ({ question: m.question, probabilityPct: m.prob_pct, volume24h: m.volume_24h }));
}

const apolloClient = (uri: string, key: string) =>
  new ApolloClient({
    link: ApolloLink.from([new HttpLink({ uri, headers: { authorization: `Bearer ${key}` } })]),
    cache: new InMemoryCache(),
    defaultOptions: { query: { fetchPolicy: 'network-only' } },
  });

describe('Apollo Client 4', () => {
  it('its queries take the fast path on both listeners and get the data REST gives', async () => {
    const { key } = await t.createKey('pro', 'pro');
    const before = await answeredBy(t.b);
    const b = apolloClient(`${t.urls.b}/graphql`, key);
    const a = apolloClient(`${t.urls.a}/graphql`, key);
    const top = await b.query({ query: gql(TOP), variables: { n: 5 } });
    const crypto = await a.query({ query: gql(MARKETS) });
    expect(await answeredBy(t.b)).toEqual({ compiled: before.compiled + 2, apollo: before.apollo });

    const items = (top.data as { predictionMarkets: { items: Record<string, unknown>[] } }).predictionMarkets.items;
    expect(items.map(({ __typename: _t, ...m }) => m)).toEqual(await restTop(key, 5));
    expect((crypto.data as { assetMarkets: { items: unknown[] } }).assetMarkets.items).toHaveLength(5);
  });

  it('a refusal reaches it as a GraphQL error with the documented code', async () => {
    const { key } = await t.createKey('pro', 'none'); // no prediction plan
    const error = await apolloClient(`${t.urls.b}/graphql`, key)
      .query({ query: gql(TOP), variables: { n: 5 } })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(CombinedGraphQLErrors.is(error)).toBe(true);
    expect((error as CombinedGraphQLErrors).errors[0]!.extensions?.code).toBe('FORBIDDEN');
  });
});

describe('graphql-request 7', () => {
  it('its queries take the fast path and get the data REST gives', async () => {
    const { key } = await t.createKey('pro', 'pro');
    const client = new GraphQLClient(`${t.urls.b}/graphql`, { headers: { authorization: `Bearer ${key}` } });
    const before = await answeredBy(t.b);
    const data = await client.request<{ predictionMarkets: { count: number; items: unknown[] } }>(TOP, { n: 3 });
    expect(await answeredBy(t.b)).toEqual({ compiled: before.compiled + 1, apollo: before.apollo });
    expect(data.predictionMarkets.items).toEqual(await restTop(key, 3));
  });

  it('a bad variable reaches it as a 400 with BAD_USER_INPUT', async () => {
    const { key } = await t.createKey('pro', 'pro');
    const client = new GraphQLClient(`${t.urls.b}/graphql`, { headers: { authorization: `Bearer ${key}` } });
    const error = await client.request(TOP, { n: 'many' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ClientError);
    expect((error as ClientError).response.status).toBe(400);
    expect((error as ClientError).response.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});

describe("Apollo Client 4's automatic persisted queries", () => {
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

  it('registers a query once, then sends its hash alone and is answered from it', async () => {
    const { key } = await t.createKey('pro', 'pro');
    const sent: { query?: string; extensions?: { persistedQuery?: unknown } }[] = [];
    const recordingFetch: typeof fetch = (input, init) => {
      sent.push(JSON.parse(String(init?.body)));
      return fetch(input, init);
    };
    const client = () =>
      new ApolloClient({
        link: ApolloLink.from([
          new PersistedQueryLink({ sha256 }),
          new HttpLink({ uri: `${t.urls.b}/graphql`, headers: { authorization: `Bearer ${key}` }, fetch: recordingFetch }),
        ]),
        cache: new InMemoryCache(),
        defaultOptions: { query: { fetchPolicy: 'network-only' } },
      });
    const first = await client().query({ query: gql(TOP), variables: { n: 3 } });
    const second = await client().query({ query: gql(TOP), variables: { n: 3 } });
    expect(second.data).toEqual(first.data);
    expect((first.data as { predictionMarkets: { items: unknown[] } }).predictionMarkets.items).toMatchObject(await restTop(key, 3));
    // The hash alone (not known yet), the text with its hash (registered), then the hash alone.
    expect(sent.map((body) => [body.query === undefined ? 'hash' : 'text', Boolean(body.extensions?.persistedQuery)])).toEqual([
      ['hash', true],
      ['text', true],
      ['hash', true],
    ]);
  });

  it("a hash that does not match the query's text is the client's mistake: 400, BAD_USER_INPUT, said as it is", async () => {
    const { key } = await t.createKey('pro', 'pro');
    const send = (persistedQuery: unknown) =>
      t.b
        .post('/graphql')
        .set(bearer(key))
        .send({ query: TOP, variables: { n: 1 }, extensions: { persistedQuery } });
    const mismatch = await send({ version: 1, sha256Hash: sha256('{ something { else } }') });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors).toEqual([{ message: 'provided sha does not match query', extensions: { code: 'BAD_USER_INPUT' } }]);
    const version = await send({ version: 2, sha256Hash: sha256(TOP) });
    expect(version.status).toBe(400);
    expect(version.body.errors).toEqual([{ message: 'Unsupported persisted query version', extensions: { code: 'BAD_USER_INPUT' } }]);
  });
});
