/**
 * The order test files start in (test/support/cost-sequencer.mjs): on a clone with no Jest cache,
 * the costliest by test/file-costs.json first, files it does not know after them, the larger first.
 */
import fs from 'node:fs';
import path from 'node:path';
// @ts-expect-error: a plain ES module Jest loads by path; it has no type declarations.
import CostSequencer from '../../support/cost-sequencer.mjs';

const root = path.resolve(import.meta.dirname, '../../..');
const costs = JSON.parse(fs.readFileSync(path.join(root, 'test/file-costs.json'), 'utf8')) as Record<string, number>;

/** A test as Jest hands it to a sequencer, in a context without a cache (a fresh clone). */
const fileTest = (relative: string, size = 0) => ({
  path: path.join(root, relative),
  context: { config: { cache: false }, hasteFS: { getSize: () => size } },
});

it('starts the costliest recorded file first and the unrecorded ones last, the larger first', () => {
  const [costliest] = Object.entries(costs).sort((a, b) => b[1] - a[1])[0]!;
  const [cheapest] = Object.entries(costs).sort((a, b) => a[1] - b[1])[0]!;
  const tests = [
    fileTest('test/integration/not-recorded-small.test.ts', 10),
    fileTest(cheapest),
    fileTest('test/integration/not-recorded-large.test.ts', 5_000),
    fileTest(costliest),
  ];
  const order = new CostSequencer({}).sort(tests).map((t: { path: string }) => path.relative(root, t.path));
  expect(order).toEqual([costliest, cheapest, 'test/integration/not-recorded-large.test.ts', 'test/integration/not-recorded-small.test.ts']);
});
