/**
 * /graphql against the GraphQL over HTTP specification, judged by the `graphql-http` package's own
 * server audit (the reference implementation's conformance suite), on both listeners with a key.
 * Every MUST passes; the SHOULD and MAY items that do not are listed here with the reason. Requests
 * it cannot read are answered in GraphQL's shape with a message a person acts on.
 */
import { auditServer, type AuditResult } from 'graphql-http';
import { startTestService, type TestService } from '../support/service.js';

let t: TestService;
let key: string;
beforeAll(async () => {
  t = await startTestService();
  ({ key } = await t.createKey('enterprise', 'pro'));
});
afterAll(() => t?.close());

/** The audit's requests, with the caller's key as a dashboard sends it. */
const withKey: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set('authorization', `Bearer ${key}`);
  return fetch(input, { ...init, headers });
};

/**
 * What the audit reports and why it stays so. Apollo Server answers a request that fails before
 * execution (a document that does not parse or validate, variables that do not coerce) with 400
 * whatever the media type, and the compiled path answers exactly as Apollo; clients of both media
 * types get a 400 they can act on. GETs with the key in `Authorization` (which no browser sends
 * cross-site without a preflight) are answered; without it they need Apollo's preflight header.
 */
const WAIVED: Record<string, string> = {
  'SHOULD use 200 status code on document parsing failure when accepting application/json': '400, as Apollo answers',
  'SHOULD use 200 status code on document validation failure when accepting application/json': '400, as Apollo answers',
  'SHOULD use a status code of 200 on variable coercion failure when accepting application/json': '400, as Apollo answers',
};

it.each(['a', 'b'] as const)('the %s listener passes every MUST of the audit; only the documented SHOULD and MAY items are waived', async (listener) => {
  const results: AuditResult[] = await auditServer({ url: `${t.urls[listener]}/graphql`, fetchFn: withKey });
  expect(results.length).toBeGreaterThan(30);
  const notOk = results.filter((r) => r.status !== 'ok');
  expect(notOk.filter((r) => r.name.startsWith('MUST')).map((r) => [r.name, 'reason' in r ? r.reason : ''])).toEqual([]);
  expect(notOk.map((r) => r.name).sort()).toEqual(Object.keys(WAIVED).sort());
});

it('a GET query with the preflight header is answered, variables and all', async () => {
  const search = new URLSearchParams({ query: 'query($n: Int!) { predictionMarkets(limit: $n) { count } }', variables: JSON.stringify({ n: 2 }) });
  const res = await withKey(`${t.urls.b}/graphql?${search}`, { headers: { 'apollo-require-preflight': '1' } });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ data: { predictionMarkets: { count: 2 } } });
});

describe("a request /graphql cannot read: GraphQL's shape, the right status, a short message", () => {
  const how = 'send a JSON object such as {"query": "{ __typename }"}';
  const cases: [string, Record<string, string>, string | undefined, number, string][] = [
    ['no Content-Type', {}, '{"query":"{ __typename }"}', 415, `a POST to /graphql needs "Content-Type: application/json"; ${how}`],
    [
      'a form',
      { 'content-type': 'application/x-www-form-urlencoded' },
      'query=x',
      415,
      `Content-Type application/x-www-form-urlencoded is not supported: POST /graphql takes application/json; ${how}`,
    ],
    ['text', { 'content-type': 'text/plain' }, '{ __typename }', 415, `Content-Type text/plain is not supported: POST /graphql takes application/json; ${how}`],
    ['an empty body', { 'content-type': 'application/json' }, undefined, 400, `the request body is empty: ${how}`],
    ['malformed JSON', { 'content-type': 'application/json' }, '{"query": ', 400, `the request body is not valid JSON: ${how}`],
    ['JSON that is not an object', { 'content-type': 'application/json' }, '"{ __typename }"', 400, `the request body must be a JSON object: ${how}`],
    ['an empty object', { 'content-type': 'application/json' }, '{}', 400, `the request body has no "query": ${how}`],
    [
      'a batch',
      { 'content-type': 'application/json' },
      '[{"query":"{ __typename }"}]',
      400,
      'batched requests (a JSON array) are not supported: send one request object per POST',
    ],
  ];
  it.each(cases)('%s', async (_name, headers, body, status, message) => {
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      const res = await fetch(`${t.urls.a}/graphql`, {
        method: 'POST',
        headers: { ...headers, accept, authorization: `Bearer ${key}` },
        // Bytes: fetch gives a string body a Content-Type of its own (text/plain).
        body: body === undefined ? undefined : new TextEncoder().encode(body),
      });
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toBe(`${accept}; charset=utf-8`);
      expect(await res.json()).toEqual({ errors: [{ message, extensions: { code: 'BAD_USER_INPUT' } }] });
    }
  });

  it('malformed JSON does not echo the body (it may hold a secret)', async () => {
    const res = await fetch(`${t.urls.b}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"variables": {"k": "${key}"` });
    expect(res.status).toBe(400);
    expect(await res.text()).not.toContain(key);
  });
});
