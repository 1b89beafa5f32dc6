/**
 * Trusted documents, end to end, with the tools a dashboard team uses: Apollo Client 4's
 * persisted-queries link with ids from a manifest that @apollo/generate-persisted-query-manifest
 * generated from the client's own documents, loaded by `documents load`. Under `enforce` the
 * client runs from the hash alone; anything else is PERSISTED_QUERY_NOT_FOUND, unless the key is
 * exempt; `log` runs it and counts it; two instances on one PostgreSQL follow one load.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApolloClient, ApolloLink, CombinedGraphQLErrors, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { generatePersistedQueryManifest, type PersistedQueryManifest } from '@apollo/generate-persisted-query-manifest';
import { generatePersistedQueryIdsFromManifest } from '@apollo/persisted-query-lists';
import { print } from 'graphql';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { parseTrustedManifest } from '../../src/graphql/catalogue/manifest.js';
import { operationId } from '../../src/graphql/catalogue/prepare.js';
import { TopPredictionMarketsDocument } from '../../src/rest/generated/operations.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { createPgSchema, postgresAvailable } from '../support/engines.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { within } from '../support/wait.js';

/** The dashboard's documents, one operation per file as Apollo's tooling wants them. */
const TOP_MARKETS = 'query TopMarkets($n: Int!) { predictionMarkets(limit: $n) { count items { id question probabilityPct } } }';
const VIEWER = 'query Viewer { viewer { accountId predictionPlan } }';
const UNLISTED = 'query Unlisted { viewer { name } }';

let manifest: PersistedQueryManifest;
let manifestFile: string;
beforeAll(async () => {
  // The dashboard's own documents, as its source tree holds them; the manifest generated as its build does.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mgw-dashboard-'));
  fs.writeFileSync(path.join(dir, 'top-markets.graphql'), TOP_MARKETS);
  fs.writeFileSync(path.join(dir, 'viewer.graphql'), VIEWER);
  manifest = await generatePersistedQueryManifest({ documents: [path.join(dir, '*.graphql')] }, undefined);
  manifestFile = path.join(dir, 'persisted-query-manifest.json');
  fs.writeFileSync(manifestFile, JSON.stringify(manifest));
});

/** Apollo Client 4 as the dashboard builds it; `sent` records every body it posts. */
function dashboardClient(url: string, key: string, link: ApolloLink) {
  const sent: { query?: string; extensions?: { persistedQuery?: { sha256Hash: string } } }[] = [];
  const recordingFetch: typeof fetch = (input, init) => {
    sent.push(JSON.parse(String(init?.body)));
    return fetch(input, init);
  };
  const client = new ApolloClient({
    link: ApolloLink.from([link, new HttpLink({ uri: `${url}/graphql`, headers: { authorization: `Bearer ${key}` }, fetch: recordingFetch })]),
    cache: new InMemoryCache(),
    defaultOptions: { query: { fetchPolicy: 'network-only' } },
  });
  return { client, sent };
}

const fromManifest = () => new PersistedQueryLink(generatePersistedQueryIdsFromManifest({ loadManifest: async () => manifest }));
const byHash = () => new PersistedQueryLink({ sha256: async (text: string) => (await import('node:crypto')).createHash('sha256').update(text).digest('hex') });
const codeOf = (error: unknown) => (CombinedGraphQLErrors.is(error) ? error.errors[0]?.extensions?.code : String(error));

describe('enforce', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ env: { TRUSTED_DOCUMENTS: 'enforce' } });
    const loaded = await runCliInProcess(['documents', 'load', manifestFile], { DATA_DIR: t.dataDir });
    expect(loaded.code).toBe(0);
    expect(loaded.stdout).toMatch(/Loaded 2 trusted documents/);
  });
  afterAll(() => t?.close());

  it('Apollo Client runs the manifest from the hash alone, once the instance has followed the load', async () => {
    const { key } = await t.createKey('pro', 'pro');
    const { client, sent } = dashboardClient(t.urls.b, key, fromManifest());
    await within(
      5_000,
      async () =>
        await client.query({ query: gql(TOP_MARKETS), variables: { n: 3 } }).then(
          () => true,
          () => false,
        ),
    );
    sent.length = 0;
    const result = await client.query({ query: gql(TOP_MARKETS), variables: { n: 3 } });
    expect((result.data as { predictionMarkets: { count: number } }).predictionMarkets.count).toBeGreaterThan(0);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.query).toBeUndefined(); // no query text on the wire
    expect(manifest.operations.map((o) => o.id)).toContain(sent[0]!.extensions!.persistedQuery!.sha256Hash);
  });

  it('an operation outside the manifest is PERSISTED_QUERY_NOT_FOUND, as a hash and then as text, and spends nothing', async () => {
    const { key } = await t.createKey('pro', 'pro');
    const { client, sent } = dashboardClient(t.urls.b, key, byHash());
    const error = await client.query({ query: gql(UNLISTED) }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(codeOf(error)).toBe('PERSISTED_QUERY_NOT_FOUND');
    // The link sent the hash, was told it is unknown, sent the text: refused again.
    expect(sent.map((body) => (body.query === undefined ? 'hash' : 'text'))).toEqual(['hash', 'text']);
    const plain = await t.b.post('/graphql').set(bearer(key)).send({ query: UNLISTED });
    expect(plain.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect(plain.headers['x-ratelimit-remaining']).toBeUndefined();
  });

  it('subscriptions meet the same policy: over WebSocket, an unlisted one is PERSISTED_QUERY_NOT_FOUND; an exempt key may start it', async () => {
    const UNLISTED_SUBSCRIPTION = 'subscription Unlisted { quotes(symbols: ["BTC/USD"]) { symbol } }';
    const clientFor = (key: string) =>
      createClient({
        url: `${t.urls.a.replace(/^http/, 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { Authorization: `Bearer ${key}` },
        retryAttempts: 0,
      });
    const started = async () => Number(/^mgw_subscriptions_started_total\{variant="A"\} (\d+)/m.exec((await t.a.get('/metrics')).text)?.[1] ?? 0);

    const plain = clientFor((await t.createKey('pro')).key);
    try {
      const refusal = await plain
        .iterate({ query: UNLISTED_SUBSCRIPTION })
        [Symbol.asyncIterator]()
        .next()
        .then(
          () => undefined,
          (errors: { extensions?: { code?: string } }[]) => errors[0]?.extensions?.code,
        );
      expect(refusal).toBe('PERSISTED_QUERY_NOT_FOUND');
    } finally {
      await plain.dispose();
    }

    const exemptKey = await t.createKey('pro');
    await t.service.store.accounts.setAnyOperation(exemptKey.keyId, true);
    const before = await started();
    const exempt = clientFor(exemptKey.key);
    try {
      void exempt
        .iterate({ query: UNLISTED_SUBSCRIPTION })
        [Symbol.asyncIterator]()
        .next()
        .catch(() => undefined);
      await within(5_000, async () => (await started()) === before + 1);
    } finally {
      await exempt.dispose();
    }
  });

  it("a key exempt from enforcement (Sandbox's) may send any operation; the REST routes' operations are always trusted", async () => {
    const { key, keyId } = await t.createKey('pro', 'pro');
    expect(await t.service.store.accounts.setAnyOperation(keyId, true)).toBe(true);
    const exempt = await t.b.post('/graphql').set(bearer(key)).send({ query: UNLISTED });
    expect(exempt.status).toBe(200);
    expect(exempt.body.data.viewer.name).toEqual(expect.any(String));
    expect((await t.b.get('/api/v1/markets?limit=2').set(bearer(key))).status).toBe(200);
    const { key: plainKey } = await t.createKey('pro', 'pro');
    expect((await t.a.get('/api/v1/markets?limit=2').set(bearer(plainKey))).status).toBe(200);
    // On /graphql too, for a key that is not exempt: the route's own text runs, one character more does not.
    const routeText = print(TopPredictionMarketsDocument);
    const asRoute = await t.b.post('/graphql').set(bearer(plainKey)).send({ query: routeText });
    expect(asRoute.status).toBe(200);
    expect(asRoute.body.data.predictionMarkets.count).toEqual(expect.any(Number));
    const edited = await t.b
      .post('/graphql')
      .set(bearer(plainKey))
      .send({ query: `${routeText} ` });
    expect([edited.status, edited.body.errors?.[0]?.extensions?.code]).toEqual([404, 'PERSISTED_QUERY_NOT_FOUND']);
  });
});

describe('log', () => {
  let t: TestService;
  const logLines: string[] = [];
  beforeAll(async () => {
    t = await startTestService({ env: { TRUSTED_DOCUMENTS: 'log', LOG_LEVEL: 'info' }, logSink: { write: (line) => void logLines.push(line) } });
    await t.service.store.trustedDocuments.replaceAll(parseTrustedManifest(manifest), Date.now());
    // Followed within a poll: until then the ids are unknown (and their texts would count as untrusted).
    const { key } = await t.createKey('pro', 'pro');
    const viewer = manifest.operations.find((o) => o.name === 'Viewer')!;
    await within(
      5_000,
      async () =>
        (
          await t.b
            .post('/graphql')
            .set(bearer(key))
            .send({ extensions: { persistedQuery: { version: 1, sha256Hash: viewer.id } } })
        ).status === 200,
    );
  });
  afterAll(() => t?.close());

  const untrusted = async () => Number(/^mgw_graphql_untrusted_operations_total (\d+)/m.exec((await t.a.get('/metrics')).text)?.[1]);

  it('an unknown operation runs and /metrics counts it; a trusted one is not counted', async () => {
    const { key } = await t.createKey('pro', 'pro');
    const before = await untrusted();
    const unknown = await t.b.post('/graphql').set(bearer(key)).send({ query: UNLISTED });
    expect(unknown.status).toBe(200);
    expect(await untrusted()).toBe(before + 1);
    const { client, sent } = dashboardClient(t.urls.b, key, fromManifest());
    await client.query({ query: gql(TOP_MARKETS), variables: { n: 1 } });
    expect(sent.map((body) => body.query)).toEqual([undefined]);
    expect(await untrusted()).toBe(before + 1);
  });

  it("the log says so at warn, once per operation a while, with its hash and the mode, never the operation's text", async () => {
    const { key } = await t.createKey('pro', 'pro');
    const text = 'query LoggedOnce { viewer { name } }';
    const lines = () => logLines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((l) => l.msg === 'operation outside the trusted documents');
    const before = lines().length;
    for (let i = 0; i < 3; i++) expect((await t.b.post('/graphql').set(bearer(key)).send({ query: text })).status).toBe(200);
    expect(lines().slice(before)).toEqual([expect.objectContaining({ level: 40, hash: operationId(text), mode: 'log' })]);
    expect(logLines.join('\n')).not.toContain('LoggedOnce');
  });
});

const pg = (await postgresAvailable()) ? describe : describe.skip;
pg('two instances on one PostgreSQL', () => {
  it('follow a manifest loaded once: both answer its hash alone, and both refuse what it does not list', async () => {
    const schema = await createPgSchema();
    const env = { DATABASE_URL: schema.url, TRUSTED_DOCUMENTS: 'enforce' };
    const [one, two] = [await startTestService({ env }), await startTestService({ env })];
    try {
      const loaded = await runCliInProcess(['documents', 'load', manifestFile], { DATABASE_URL: schema.url });
      expect(loaded.code).toBe(0);
      const { key } = await one.createKey('pro', 'pro');
      const viewer = manifest.operations.find((o) => o.name === 'Viewer')!;
      for (const instance of [one, two]) {
        const ask = () =>
          instance.b
            .post('/graphql')
            .set(bearer(key))
            .send({ extensions: { persistedQuery: { version: 1, sha256Hash: viewer.id } } });
        await within(5_000, async () => (await ask()).status === 200);
        expect((await ask()).body.data.viewer.predictionPlan).toBe('pro');
        expect((await instance.b.post('/graphql').set(bearer(key)).send({ query: UNLISTED })).body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
      }
    } finally {
      await one.close();
      await two.close();
      await schema.drop();
    }
  });
});
