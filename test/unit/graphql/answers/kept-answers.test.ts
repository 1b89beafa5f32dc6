/**
 * The response cache of the REST facades and /graphql: one computation per slot and version, even
 * for concurrent requests; only the newest version of a slot is held; failures are not kept.
 */
import type { Principal } from '../../../../src/auth/authenticator.js';
import type { GraphQLServices } from '../../../../src/graphql/services.js';
import { cacheSlotOf, createResponseCache, matchesEtag } from '../../../../src/graphql/answers/kept-answers.js';
import { currentStoreDeadline, withinStoreDeadline } from '../../../../src/deadline/request-deadline.js';

it('computes a key once, however many ask at the same time, and serves the same bytes after', async () => {
  const cache = createResponseCache();
  let computed = 0;
  const compute = async () => {
    computed++;
    await new Promise((r) => setTimeout(r, 20));
    return { ok: true, n: 1 };
  };
  const bodies = await Promise.all(Array.from({ length: 20 }, () => cache.get('k', 'v1', compute)));
  expect(computed).toBe(1);
  expect(new Set(bodies).size).toBe(1);
  expect(bodies[0]!.bytes.toString()).toBe('{"ok":true,"n":1}');
  expect(bodies[0]!.etag).toMatch(/^"[\w-]{27}"$/);
  await cache.get('k', 'v1', compute);
  expect(computed).toBe(1);
});

it('does not keep a failure: the next request computes again', async () => {
  const cache = createResponseCache();
  await expect(cache.get('k', 'v1', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  await expect(cache.get('k', 'v1', async () => ({ fine: true }))).resolves.toMatchObject({ bytes: Buffer.from('{"fine":true}') });
});

it("a computation shared by requests runs outside the starter's deadline; each request waits within its own", async () => {
  const cache = createResponseCache();
  let release: () => void = () => undefined;
  const seen: (number | undefined)[] = [];
  const compute = async () => {
    seen.push(currentStoreDeadline());
    await new Promise<void>((r) => {
      release = r;
    });
    return { shared: true };
  };
  // The starter's admission waited: 30 ms are left of its deadline. The other request has none.
  const starter = Promise.resolve(withinStoreDeadline(performance.now() + 30, () => cache.get('k', 'v1', compute))).catch((e: Error) => e.message);
  const joiner = cache.get('k', 'v1', compute);
  expect(await starter).toMatch(/^Query read timeout/); // a 503, as its own statement's cut would be
  release();
  await expect(joiner).resolves.toMatchObject({ bytes: Buffer.from('{"shared":true}') });
  expect(seen).toEqual([undefined]); // computed once, its statements bound by no request's deadline
});

it("slots by path and parameters in any order, and by account only where the answer is the caller's own", () => {
  const owner = (id: string) => ({ keyId: 'key_1', account: { id }, anyOperation: false }) as unknown as Principal;
  expect(cacheSlotOf('/m', { a: 1, b: 'x' })).toBe(cacheSlotOf('/m', { b: 'x', a: 1 }));
  expect(cacheSlotOf('/m', { a: 1 })).not.toBe(cacheSlotOf('/m', { a: 2 }));
  expect(cacheSlotOf('/m', { a: 1 })).not.toBe(cacheSlotOf('/n', { a: 1 }));
  expect(cacheSlotOf('/alerts', {}, owner('acct_a'))).not.toBe(cacheSlotOf('/alerts', {}, owner('acct_b')));
  expect(cacheSlotOf('/alerts', {}, null)).toBe(cacheSlotOf('/alerts', {}));
});

it("answer(): the versioning's version now, a slot per account only where the answer is the caller's own", async () => {
  const owner = (id: string) => ({ keyId: 'key_1', account: { id }, anyOperation: false }) as unknown as Principal;
  const services = { now: () => 1_000 } as unknown as GraphQLServices;
  const asked: number[] = [];
  const shared = {
    version: (_s: GraphQLServices, now: number) => {
      asked.push(now);
      return 'v1';
    },
  };
  const own = { version: (_s: GraphQLServices, _now: number, p: Principal | null) => `a${p!.account.id}.1`, perAccount: true };
  const cache = createResponseCache();
  let computed = 0;
  const compute = async () => ({ n: ++computed });
  await cache.answer(shared, services, owner('acct_a'), '/markets', { limit: 5 }, compute);
  await cache.answer(shared, services, owner('acct_b'), '/markets', { limit: 5 }, compute);
  expect(asked).toEqual([1_000, 1_000]);
  expect([computed, cache.size()]).toEqual([1, 1]); // shared data: one answer for every caller
  const a = await cache.answer(own, services, owner('acct_a'), '/alerts', {}, compute);
  const b = await cache.answer(own, services, owner('acct_b'), '/alerts', {}, compute);
  expect(a.bytes.toString()).not.toBe(b.bytes.toString());
  expect([computed, cache.size()]).toEqual([3, 3]); // one slot per account
});

it('holds only the newest version of a slot: a new version replaces the old one, in count and in bytes', async () => {
  const cache = createResponseCache();
  let computed = 0;
  const body = (version: string) => async () => {
    computed++;
    return { version, pad: 'x'.repeat(100) };
  };
  for (let v = 1; v <= 50; v++) await cache.get('/markets|[]', `v${v}`, body(`v${v}`));
  await cache.get('/brief|[]', 'v50', body('v50'));
  expect(cache.size()).toBe(2);
  const one = Buffer.byteLength(JSON.stringify({ version: 'v50', pad: 'x'.repeat(100) }));
  expect(cache.bytes()).toBe(2 * one);
  computed = 0;
  expect(JSON.parse((await cache.get('/markets|[]', 'v50', body('v50'))).bytes.toString()).version).toBe('v50');
  expect(computed).toBe(0);
  await cache.get('/markets|[]', 'v49', body('v49')); // an old version is computed again (and then held)
  expect(computed).toBe(1);
});

it('a slow computation of an older version does not replace the newer answer that finished first', async () => {
  const cache = createResponseCache();
  let releaseOld!: () => void;
  const old = cache.get('s', 'v1', () => new Promise((resolve) => (releaseOld = () => resolve({ v: 1 }))));
  await cache.get('s', 'v2', async () => ({ v: 2 }));
  releaseOld();
  expect((await old).bytes.toString()).toBe('{"v":1}'); // its own caller gets what it asked for
  let computed = 0;
  const held = await cache.get('s', 'v2', async () => {
    computed++;
    return { v: 2 };
  });
  expect(computed).toBe(0);
  expect(held.bytes.toString()).toBe('{"v":2}');
  expect(cache.size()).toBe(1);
});

it('matches If-None-Match lists, weak forms and *', () => {
  expect(matchesEtag('"abc"', '"abc"')).toBe(true);
  expect(matchesEtag('"x", W/"abc"', '"abc"')).toBe(true);
  expect(matchesEtag('*', '"abc"')).toBe(true);
  expect(matchesEtag('"abd"', '"abc"')).toBe(false);
  expect(matchesEtag(undefined, '"abc"')).toBe(false);
});

it('is bounded by bytes too: the oldest bodies go first, and a body over a quarter of the budget is served but not kept', async () => {
  const cache = createResponseCache({ maxBytes: 1_000 });
  let computed = 0;
  const body = (n: number) => async () => {
    computed++;
    return { pad: 'x'.repeat(n) };
  };
  for (const key of ['a', 'b', 'c', 'd', 'e']) await cache.get(key, 'v1', body(200)); // about 210 bytes each
  expect(cache.size()).toBeLessThanOrEqual(4);
  computed = 0;
  await cache.get('e', 'v1', body(200)); // the newest is kept
  expect(computed).toBe(0);
  await cache.get('a', 'v1', body(200)); // the oldest went
  expect(computed).toBe(1);
  await cache.get('big', 'v1', body(300));
  await cache.get('big', 'v1', body(300));
  expect(computed).toBe(3);
});
