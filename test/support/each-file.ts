/**
 * Hooks for the end of every test file. Jest's default runner evaluated a support module again for
 * each file, so an `afterAll` at its top level ran after each; the light runner (jest.config.js)
 * evaluates it once per worker, for the first file only. `afterEachFile(fn)` adds `fn` as an
 * `afterAll` of every file's top level as the file declares its tests, the one that loaded the
 * module included.
 */
import { addEventHandler, getState } from 'jest-circus';

const hooks: (() => Promise<void> | void)[] = [];
const filesGiven = new WeakSet<object>();

export function afterEachFile(fn: () => Promise<void> | void): void {
  hooks.push(fn);
}

addEventHandler((event) => {
  if (event.name !== 'add_test' && event.name !== 'add_hook') return;
  const root = getState().rootDescribeBlock;
  if (filesGiven.has(root)) return;
  filesGiven.add(root);
  for (const fn of hooks) {
    root.hooks.push({ asyncError: new Error('an afterEachFile hook'), fn, parent: root, seenDone: false, timeout: undefined, type: 'afterAll' });
  }
});
