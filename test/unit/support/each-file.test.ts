/**
 * test/support/each-file.ts: a support module is evaluated once per worker under the light runner,
 * yet its end-of-file hook (the launcher's, which kills what a file left running) must run after
 * every file, not the first alone.
 */
import { getState, resetState, setState } from 'jest-circus';
import { killAllLaunched } from '../../support/launch.js';

const endsWithKill = (root: ReturnType<typeof getState>['rootDescribeBlock']) =>
  root.hooks.some((hook) => hook.type === 'afterAll' && hook.fn === killAllLaunched);

it("this file's top level ends with the launcher's kill", () => {
  expect(endsWithKill(getState().rootDescribeBlock)).toBe(true);
});

it('so does each file declared after it in the same worker', () => {
  const running = getState();
  const laterFiles: ReturnType<typeof getState>['rootDescribeBlock'][] = [];
  try {
    for (const name of ['a later file', 'and the one after']) {
      resetState(); // what the runner does before it loads the next file
      it(`a test of ${name}`, () => {});
      laterFiles.push(getState().rootDescribeBlock);
    }
  } finally {
    setState(running);
  }
  expect(laterFiles.map(endsWithKill)).toEqual([true, true]);
});
