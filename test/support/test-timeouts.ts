/**
 * Jest's own runner stops a test or hook after its timeout; the light runner the suite uses
 * (jest.config.js) calls them without one, so a hung test would hang the whole run. This setup file
 * gives every test and hook the timeout it was declared with (`it(name, fn, ms)`), or
 * DEFAULT_TIMEOUT_MS, as it is added.
 */
import { addEventHandler, getState } from 'jest-circus';

export const DEFAULT_TIMEOUT_MS = 30_000;

type Callback = (...args: never[]) => unknown;

/** Read before any test can fake the clock: the limit runs on real time. */
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;

/** `fn` as a function of no arguments returning a promise, whether it takes a `done` callback or not. */
function promised(fn: Callback): () => Promise<unknown> {
  if (fn.length === 0) return async () => fn();
  return () =>
    new Promise((resolve, reject) => {
      (fn as unknown as (done: (error?: unknown) => void) => void)((error) => (error ? reject(error) : resolve(undefined)));
    });
}

/** `fn`, failing with a message naming `what` when it has not settled after `ms`. */
export function withTimeout(fn: Callback, ms: number, what: string): () => Promise<unknown> {
  const run = promised(fn);
  return async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = realSetTimeout(() => reject(new Error(`${what}: exceeded the timeout of ${ms} ms`)), ms);
    });
    try {
      return await Promise.race([run(), expired]);
    } finally {
      realClearTimeout(timer);
    }
  };
}

addEventHandler((event) => {
  if (event.name !== 'add_test' && event.name !== 'add_hook') return;
  const block = getState().currentDescribeBlock;
  const entry = event.name === 'add_test' ? block.children.at(-1) : block.hooks.at(-1);
  if (!entry || !('fn' in entry) || entry.fn !== event.fn) return; // refused by circus (nested, late)
  const what = event.name === 'add_test' ? `test "${event.testName}"` : `${event.hookType} hook`;
  entry.fn = withTimeout(entry.fn as Callback, event.timeout ?? DEFAULT_TIMEOUT_MS, what) as typeof entry.fn;
});
