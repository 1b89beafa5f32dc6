/**
 * The light runner gives no test a timeout; test/support/test-timeouts.ts (a setup file of every
 * project) does. A hung test must fail naming itself, not hang the run.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { getState } from 'jest-circus';
import { DEFAULT_TIMEOUT_MS, withTimeout } from '../../support/test-timeouts.js';

const never = () => new Promise<never>(() => {});

it('a body that never settles fails after its timeout, naming what hung', async () => {
  await expect(withTimeout(never, 20, 'test "x"')()).rejects.toThrow('test "x": exceeded the timeout of 20 ms');
});

it('a body that settles in time gives its own result or failure', async () => {
  await expect(withTimeout(async () => 'value', 1_000, 'test "x"')()).resolves.toBe('value');
  await expect(withTimeout(async () => Promise.reject(new Error('own failure')), 1_000, 'test "x"')()).rejects.toThrow('own failure');
});

it("a body taking Jest's `done` callback ends when it is called, and fails with what it is given", async () => {
  await expect(withTimeout((done: () => void) => setImmediate(done), 1_000, 'test "x"')()).resolves.toBeUndefined();
  await expect(withTimeout((done: (error: Error) => void) => setImmediate(() => done(new Error('by done'))), 1_000, 'test "x"')()).rejects.toThrow('by done');
});

/** Run as a test, it passes at once; called again by the next test, it never settles. */
let hangWhenCalledAgain = false;
const DECLARED = 'a test declared with a 20 ms timeout';
it(DECLARED, async () => {
  if (hangWhenCalledAgain) await never();
}, 20);

it('every test of a file is given the timeout it was declared with, as it is added', async () => {
  const entry = getState().rootDescribeBlock.children.find((child) => child.name === DECLARED);
  if (entry?.type !== 'test') throw new Error(`no test named "${DECLARED}"`);
  hangWhenCalledAgain = true;
  const called = (entry.fn as () => Promise<unknown>)();
  // Unwrapped, the body would never settle: the race ends after a second, with a value.
  const unwrapped = delay(1_000, 'never settled: the body was not wrapped', { ref: false });
  await expect(Promise.race([called, unwrapped])).rejects.toThrow(`test "${DECLARED}": exceeded the timeout of 20 ms`);
});

it("a test declared without a timeout gets jest.config.js's, as Jest's own runner would give it", async () => {
  const config = (await import(new URL('../../../jest.config.js', import.meta.url).href)) as { default: { testTimeout: number } };
  expect(DEFAULT_TIMEOUT_MS).toBe(config.default.testTimeout);
});
