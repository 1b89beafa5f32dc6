/**
 * The minute's counts in process (`minuteCounter`) against rate-limiter-flexible's memory limiter,
 * which they replace: the same answers to the same consumes, refunds and reads; then how long a
 * window's counts are kept.
 */
import fc from 'fast-check';
import { RateLimiterMemory, type RateLimiterRes } from 'rate-limiter-flexible';
import { keyText as text, minuteCounter } from '../../../src/quota/counters.js';

it('answers every consume, refund and read as rate-limiter-flexible does', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 5 }),
      fc.array(
        fc.record({
          op: fc.constantFrom('consume', 'consume', 'refund', 'spent'),
          key: fc.record({ owner: fc.constantFrom('acc_a', 'acc_b'), window: fc.constantFrom(7, 8) }),
        }),
        { maxLength: 60 },
      ),
      async (limit, ops) => {
        const ours = minuteCounter(limit);
        const theirs = new RateLimiterMemory({ points: limit, duration: 60 });
        const counts = new Map<string, number>();
        for (const { op, key } of ops) {
          if (op === 'consume') {
            const expected = await theirs.consume(text(key), 1, { customDuration: 61 }).then(
              (res) => ({ allowed: true, consumed: res.consumedPoints }),
              (res: RateLimiterRes) => ({ allowed: false, consumed: res.consumedPoints }),
            );
            expect(await ours.consume(key, 61)).toEqual(expected);
            counts.set(text(key), expected.consumed);
          } else if (op === 'refund') {
            // The quota service refunds only what it consumed.
            if (!counts.get(text(key))) continue;
            await theirs.reward(text(key), 1, { customDuration: 61 });
            await ours.refund(key, 61);
            counts.set(text(key), counts.get(text(key))! - 1);
          } else {
            expect(await ours.spent(key)).toBe((await theirs.get(text(key)))?.consumedPoints ?? 0);
          }
        }
      },
    ),
  );
});

it("a window's counts are kept while the next window is the newest, and dropped once a later one is counted", async () => {
  const counter = minuteCounter(10);
  await counter.consume({ owner: 'acc', window: 100 }, 61);
  await counter.consume({ owner: 'acc', window: 100 }, 61);
  // The next minute has begun: the last second of 100's ttl is still in it, and so is a refund.
  await counter.consume({ owner: 'other', window: 101 }, 60);
  await counter.refund({ owner: 'acc', window: 100 }, 1);
  expect(await counter.spent({ owner: 'acc', window: 100 })).toBe(1);
  await counter.consume({ owner: 'other', window: 102 }, 60);
  expect(await counter.spent({ owner: 'acc', window: 100 })).toBe(0);
  expect(await counter.spent({ owner: 'other', window: 101 })).toBe(1);
});

it('a refund gives back one unit and never goes below nothing', async () => {
  const counter = minuteCounter(1);
  const key = { owner: 'acc', window: 1 };
  expect(await counter.consume(key, 61)).toEqual({ allowed: true, consumed: 1 });
  expect(await counter.consume(key, 61)).toEqual({ allowed: false, consumed: 2 });
  await counter.refund(key, 61);
  await counter.refund(key, 61);
  await counter.refund(key, 61);
  expect(await counter.spent(key)).toBe(0);
  expect(await counter.consume(key, 61)).toEqual({ allowed: true, consumed: 1 });
});
