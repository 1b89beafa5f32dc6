/** src/load-once.ts: one load shared by concurrent callers, a failed load tried again, closing only what loaded. */
import { loadOnce } from '../../src/load-once.js';

it('callers meanwhile share one load, and later callers get the same value', async () => {
  let loads = 0;
  const value = loadOnce(async () => ({ made: ++loads }));
  const [a, b] = await Promise.all([value(), value()]);
  expect(a).toBe(b);
  expect(await value()).toBe(a);
  expect(loads).toBe(1);
});

it('a failed load is not kept: the next call loads again', async () => {
  let loads = 0;
  const value = loadOnce(async () => {
    loads++;
    if (loads === 1) throw new Error('module missing');
    return 'loaded';
  });
  await expect(value()).rejects.toThrow('module missing');
  await expect(value()).resolves.toBe('loaded');
  expect(loads).toBe(2);
});

it('ifLoaded uses the value once loaded, and does nothing when no load started or it failed', async () => {
  const closed: string[] = [];
  const never = loadOnce(async () => 'never');
  never.ifLoaded((v) => closed.push(v));

  const failed = loadOnce(async (): Promise<string> => {
    throw new Error('no');
  });
  await failed().catch(() => undefined);
  failed.ifLoaded((v) => closed.push(v));

  const used = loadOnce(async () => 'used');
  const pending = used();
  used.ifLoaded((v) => closed.push(v)); // asked while the load is under way
  await pending;
  await new Promise((resolve) => setImmediate(resolve));
  expect(closed).toEqual(['used']);
});
