/**
 * What counting one request in the usage records costs by itself: the recorder's
 * `count` in this process, a million calls over 20 keys and 6 routes, its writes to a store that
 * takes them and does nothing. The whole-request figure is the bench's off/on comparison.
 */
import pino from 'pino';
import type { UsageRepository } from '../src/store/usage.js';
import { createUsageRecorder } from '../src/usage/usage-recorder.js';

export async function benchUsageCount(calls = 1_000_000): Promise<{ nsPerCount: number; calls: number }> {
  const store = { add: async () => undefined, pruneBefore: async () => 0 } as unknown as UsageRepository;
  const recorder = createUsageRecorder({ usage: store, flushMs: 1_000, retentionDays: 400, logger: pino({ level: 'silent' }), now: Date.now });
  const keys = Array.from({ length: 20 }, (_, i) => `key_${i}`);
  const routes = ['A GET /api/v1/markets', 'A GET /api/v1/brief', 'A GET /api/v1/alerts', 'MarketsPage', 'anonymous', 'B GET /api/v1/markets'];
  const run = (n: number) => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < n; i++) recorder.count('acct_1', keys[i % 20]!, 'A', routes[i % 6]!, Date.now());
    return Number(process.hrtime.bigint() - started) / n;
  };
  run(calls / 10); // warm-up: optimized before it is timed
  const nsPerCount = run(calls);
  await recorder.stop();
  return { nsPerCount: Math.round(nsPerCount), calls };
}
