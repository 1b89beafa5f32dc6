/**
 * The order Jest starts test files in: the costliest first, so that no long file (a browser suite,
 * a fault suite) starts last and leaves the other workers idle while it runs alone. Jest's own
 * sequencer knows the costs only from an earlier run on the same machine (its cache), and orders a
 * fresh clone, CI's case, by file size, which put the two browser suites (small files) last. Without
 * a cached time, a file's cost is read from `test/file-costs.json`, the seconds of a whole run
 * (`node scripts/test-times.mjs run.json --write-costs` refreshes it); a file missing from both
 * comes after the known ones, the larger first. Failed files still come first, as with Jest's own.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Sequencer from '@jest/test-sequencer';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const recorded = JSON.parse(fs.readFileSync(path.join(root, 'test/file-costs.json'), 'utf8'));

export default class CostSequencer extends Sequencer {
  sort(tests) {
    for (const test of tests) test.duration = this.time(test); // as Jest's own does: its run-in-band choice reads it
    /** Seconds: Jest caches milliseconds. */
    const cost = (test) => (test.duration !== undefined ? test.duration / 1000 : recorded[path.relative(root, test.path)]);
    const size = (test) => test.context.hasteFS.getSize(test.path) ?? 0;
    return [...tests].sort((a, b) => {
      const failed = Number(this.hasFailed(b)) - Number(this.hasFailed(a));
      if (failed !== 0) return failed;
      const [costA, costB] = [cost(a), cost(b)];
      if (costA !== undefined && costB !== undefined) return costB - costA;
      if (costA !== undefined || costB !== undefined) return costA === undefined ? 1 : -1;
      return size(b) - size(a);
    });
  }
}
