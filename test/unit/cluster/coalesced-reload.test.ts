/** One reload at a time; notices during a run become exactly one more run, never an overlap. */
import { coalescedReload } from '../../../src/cluster/coalesced-reload.js';

it('never overlaps, and folds any number of notices during a run into one more run', async () => {
  let active = 0;
  let maxActive = 0;
  let runs = 0;
  const gates: (() => void)[] = [];
  const reload = coalescedReload(async () => {
    active++;
    maxActive = Math.max(maxActive, active);
    runs++;
    await new Promise<void>((resolve) => gates.push(resolve));
    active--;
  });
  const first = reload();
  const during = [reload(), reload(), reload()]; // three notices while the first run is going
  expect(runs).toBe(1);
  gates.shift()!(); // the first run ends; one more starts
  await new Promise((r) => setImmediate(r));
  expect(runs).toBe(2);
  gates.shift()!();
  await Promise.all([first, ...during]);
  expect(runs).toBe(2);
  expect(maxActive).toBe(1);
  // Idle again: the next notice runs at once.
  const later = reload();
  expect(runs).toBe(3);
  gates.shift()!();
  await later;
});
