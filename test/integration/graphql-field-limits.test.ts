/**
 * `@rateLimit` on the briefs: each resolution counts, so aliasing the field is no way around the
 * limit; REST requests are metered by their quota and do not count against it.
 */
import { bearer, startTestService, type TestService } from '../support/service.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t?.close());

const aliasedBriefs = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `b${i}: assetBrief(symbols: ["BTC/USD"]) { interval }`).join(' ')} }`;

it('60 brief resolutions a minute per account, aliases included; then RATE_LIMITED, and REST is not affected', async () => {
  const { key } = await t.createKey('enterprise');
  const other = await t.createKey('enterprise');
  const send = (k: string, query: string) => t.a.post('/graphql').set(bearer(k)).send({ query });
  for (let i = 0; i < 4; i++) {
    const res = await send(key, aliasedBriefs(15)); // 4 x 15 = 60, the limit
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
  }
  const refused = await send(key, aliasedBriefs(1));
  expect(refused.body.errors[0].extensions.code).toBe('RATE_LIMITED');
  expect(refused.body.errors[0].path).toEqual(['b0']);
  // Per account: another key's account is untouched.
  expect((await send(other.key, aliasedBriefs(1))).body.errors).toBeUndefined();
  // The REST brief runs the same field, metered by its quota only.
  expect((await t.a.get('/api/v1/brief?symbols=BTC/USD').set(bearer(key))).status).toBe(200);
});

it('a field over its limit answers 429 on Apollo too (a query that also introspects runs there), its error without extensions.http', async () => {
  const { key } = await t.createKey('enterprise');
  const send = (query: string) => t.a.post('/graphql').set(bearer(key)).send({ query });
  for (let i = 0; i < 4; i++) expect((await send(aliasedBriefs(15))).status).toBe(200);
  const before = await t.a.get('/metrics');
  const refused = await send('{ __typename __schema { queryType { name } } b0: assetBrief(symbols: ["BTC/USD"]) { interval } }');
  expect(refused.status).toBe(429);
  expect(refused.body.data).toBeNull(); // the brief is not nullable
  expect(refused.body.errors).toEqual([expect.objectContaining({ path: ['b0'], extensions: { code: 'RATE_LIMITED' } })]);
  const apollo = (text: string) => Number(/mgw_graphql_requests_total\{[^}]*path="apollo"[^}]*\} (\d+)/.exec(text)?.[1] ?? 0);
  expect(apollo((await t.a.get('/metrics')).text)).toBe(apollo(before.text) + 1);
});
