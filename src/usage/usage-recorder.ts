/**
 * Counts every request the edge admits per UTC day, account, key, listener and route, in memory,
 * and adds the counts to the store in batches (cluster/batched-deltas.ts): a request costs a map
 * lookup and an increment. A process killed outright loses at most its last interval's counts; a
 * store that cannot be written keeps them until it can. Days older than the retention are pruned.
 */
import type { Logger } from 'pino';
import { createBatchedDeltas } from '../cluster/batched-deltas.js';
import { DAY_MS, HOUR_MS, utcDate } from '../domain/time.js';
import type { UsageDelta, UsageRepository } from '../store/usage.js';
import type { Principal } from '../auth/authenticator.js';

export interface UsageRecorder {
  /** One request, admitted on `keyId` of `accountId` at `at` (epoch ms). */
  count(accountId: string, keyId: string, listener: string, route: string, at: number): void;
  /** What the edge of `listener` tells of each request it metered (its `onMetered`). */
  meter(listener: string): (principal: Principal, usageName: string) => void;
  /** Writes the counts not yet written (tests, shutdown). */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

interface UsageRecorderOptions {
  usage: UsageRepository;
  /** How often counts are added to the store; a kill -9 loses at most this much. */
  flushMs: number;
  retentionDays: number;
  logger: Logger;
  now: () => number;
}

/** How often days past the retention are deleted (by every instance: a delete of nothing is cheap). */
const PRUNE_EVERY_MS = HOUR_MS;

export function createUsageRecorder(options: UsageRecorderOptions): UsageRecorder {
  const { usage, logger } = options;
  const deltas = createBatchedDeltas<UsageDelta>({
    write: (batch) => usage.add(batch),
    merge: (into, from) => {
      into.requests += from.requests;
      into.lastAt = Math.max(into.lastAt, from.lastAt);
    },
    intervalMs: options.flushMs,
    onWriteFailed: (error, pending) => logger.warn({ err: error, pending }, 'usage counts not saved; retrying with the next flush'),
  });

  // The day's name is computed once per day, not once per request.
  let dayIndex = -1;
  let day = '';

  async function prune(): Promise<void> {
    const before = utcDate(options.now() - options.retentionDays * DAY_MS);
    const deleted = await usage.pruneBefore(before);
    if (deleted > 0) logger.info({ deleted, before }, 'usage records past their retention deleted');
  }
  const pruner = setInterval(() => void prune().catch((error: unknown) => logger.warn({ err: error }, 'usage retention: prune failed')), PRUNE_EVERY_MS);
  pruner.unref();
  void prune().catch((error: unknown) => logger.warn({ err: error }, 'usage retention: prune failed'));

  function count(accountId: string, keyId: string, listener: string, route: string, at: number): void {
    const index = Math.floor(at / DAY_MS);
    if (index !== dayIndex) {
      dayIndex = index;
      day = utcDate(at);
    }
    const delta = deltas.entry(`${day}|${listener}|${route}`, keyId, () => ({ day, accountId, keyId, listener, route, requests: 0, lastAt: at }));
    delta.requests++;
    if (at > delta.lastAt) delta.lastAt = at;
  }

  return {
    count,
    meter: (listener) => (principal, usageName) => count(principal.account.id, principal.keyId, listener, usageName, options.now()),
    flush: deltas.flush,
    async stop() {
      clearInterval(pruner);
      await deltas.stop();
    },
  };
}
