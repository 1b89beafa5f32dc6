/** Quota windows are fixed and aligned to the UTC clock: the minute at second 0, the day at 00:00 UTC. */
import fc from 'fast-check';
import { windowAt } from '../../../src/quota/windows.js';

it('the minute and the day of a given instant', () => {
  const at = Date.UTC(2026, 10, 24, 23, 59, 30, 250);
  expect(windowAt('minute', at).endsAt).toBe(Date.UTC(2026, 10, 24, 23, 60));
  expect(windowAt('day', at).endsAt).toBe(Date.UTC(2026, 10, 25));
  expect(windowAt('day', Date.UTC(2026, 10, 25)).endsAt).toBe(Date.UTC(2026, 10, 26)); // midnight opens the next day
});

it('every instant is in exactly one window: consecutive indexes, each ending where the next begins', () => {
  fc.assert(
    fc.property(fc.constantFrom('minute' as const, 'day' as const), fc.integer({ min: 0, max: 4_102_444_800_000 }), (name, at) => {
      const here = windowAt(name, at);
      const size = name === 'minute' ? 60_000 : 86_400_000;
      expect(here.endsAt - size).toBeLessThanOrEqual(at);
      expect(at).toBeLessThan(here.endsAt);
      expect(here.endsAt % size).toBe(0);
      expect(windowAt(name, here.endsAt).index).toBe(here.index + 1);
      expect(windowAt(name, here.endsAt - 1).index).toBe(here.index);
    }),
    { endOnFailure: true },
  );
});
