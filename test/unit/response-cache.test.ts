/** The facade's response cache: one computation per key, even for concurrent requests; failures are not kept. */
import { cacheKeyOf, createResponseCache, matchesEtag } from '../../src/rest/response-cache.js';

it('computes a key once, however many ask at the same time, and serves the same bytes after', async () => {
  const cache = createResponseCache();
  let computed = 0;
  const compute = async () => {
    computed++;
    await new Promise((r) => setTimeout(r, 20));
    return { ok: true, n: 1 };
  };
  const bodies = await Promise.all(Array.from({ length: 20 }, () => cache.get('k', compute)));
  expect(computed).toBe(1);
  expect(new Set(bodies).size).toBe(1);
  expect(bodies[0]!.bytes.toString()).toBe('{"ok":true,"n":1}');
  expect(bodies[0]!.etag).toMatch(/^"[\w-]{27}"$/);
  await cache.get('k', compute);
  expect(computed).toBe(1);
});

it('does not keep a failure: the next request computes again', async () => {
  const cache = createResponseCache();
  await expect(cache.get('k', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  await expect(cache.get('k', async () => ({ fine: true }))).resolves.toMatchObject({ bytes: Buffer.from('{"fine":true}') });
});

it('keys by path, parameters in any order, and version', () => {
  expect(cacheKeyOf('/m', { a: 1, b: 'x' }, '7')).toBe(cacheKeyOf('/m', { b: 'x', a: 1 }, '7'));
  expect(cacheKeyOf('/m', { a: 1 }, '7')).not.toBe(cacheKeyOf('/m', { a: 1 }, '8'));
  expect(cacheKeyOf('/m', { a: 1 }, '7')).not.toBe(cacheKeyOf('/m', { a: 2 }, '7'));
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
  for (const key of ['a', 'b', 'c', 'd', 'e']) await cache.get(key, body(200)); // about 210 bytes each
  expect(cache.size()).toBeLessThanOrEqual(4);
  computed = 0;
  await cache.get('e', body(200)); // the newest is kept
  expect(computed).toBe(0);
  await cache.get('a', body(200)); // the oldest went
  expect(computed).toBe(1);
  await cache.get('big', body(300));
  await cache.get('big', body(300));
  expect(computed).toBe(3);
});
