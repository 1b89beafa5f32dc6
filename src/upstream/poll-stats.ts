/** A poller's figures: counted and logged after each poll, read as a copy by /metrics and the health answer. */
import type { Logger } from 'pino';
import type { SkippedItems, UpstreamBatch } from './connector.js';
import { UpstreamError } from './errors.js';
import type { CircuitName } from './gate.js';

export interface PollerStats {
  source: string;
  polls: number;
  succeeded: number;
  failed: number;
  /** Items dropped by validation, in total. */
  invalidItems: number;
  /** Items the connector left out on purpose (unpriced, closed...), in total by reason. */
  skippedItems: SkippedItems;
  /** Failed polls by kind (`timeout`, `http`, `schema`, `circuit_open`...). */
  failures: Record<string, number>;
  lastSuccessAt: number | null;
  lastError: string | null;
  /** How the last poll ended; null before the first. */
  lastOutcome: 'succeeded' | 'failed' | null;
  /** The circuit of the source's requests (open: not called until a trial request succeeds). */
  circuit: CircuitName;
  /** When the upstream asked us to wait: no poll before this (epoch ms, by the host's clock), else null. */
  notBefore: number | null;
}

export type PollCounts = Omit<PollerStats, 'circuit' | 'notBefore'>;

export function newPollCounts(source: string): PollCounts {
  return {
    source,
    polls: 0,
    succeeded: 0,
    failed: 0,
    invalidItems: 0,
    skippedItems: {},
    failures: {},
    lastSuccessAt: null,
    lastError: null,
    lastOutcome: null,
  };
}

/** A good batch handed to the sink: counted, its invalid items logged. */
export function recordSuccess(stats: PollCounts, batch: UpstreamBatch, log: Logger, now: () => number, startedMs: number): void {
  stats.succeeded++;
  stats.lastOutcome = 'succeeded';
  stats.lastSuccessAt = now();
  stats.invalidItems += batch.problems.invalid;
  for (const [reason, n] of Object.entries(batch.skipped)) stats.skippedItems[reason] = (stats.skippedItems[reason] ?? 0) + n;
  const items = batch.kind === 'market-data' ? { quotes: batch.quotes.length, candles: batch.candles.length } : { observations: batch.observations.length };
  if (batch.problems.invalid > 0) {
    log.warn({ invalid: batch.problems.invalid, examples: batch.problems.examples }, 'upstream items failed validation; kept the rest');
  }
  log.debug({ markets: batch.markets.length, ...items, skipped: batch.skipped, ms: Date.now() - startedMs }, 'upstream polled');
}

/** A failed poll: counted by kind and logged (an open circuit quietly). */
export function recordFailure(stats: PollCounts, error: unknown, log: Logger): void {
  stats.failed++;
  stats.lastOutcome = 'failed';
  const kind = error instanceof UpstreamError ? error.failure : 'ingest';
  stats.failures[kind] = (stats.failures[kind] ?? 0) + 1;
  stats.lastError = (error as Error).message;
  // An open circuit is expected quiet: the gate's one line when it opened is enough.
  // Said as it is: with no good poll since start, there is no "last good data" of ours to serve.
  const serving = stats.lastSuccessAt === null ? 'no good poll of it since start' : 'serving the data of its last good poll';
  if (kind !== 'circuit_open')
    log.warn({ failure: kind, err: error instanceof UpstreamError ? undefined : error, reason: stats.lastError }, `upstream poll failed; ${serving}`);
}

/** A copy of the figures with the circuit and the wait asked for, as read at `nowMs`. */
export function pollStatsOf(stats: PollCounts, circuit: CircuitName, notBefore: number, nowMs: number): PollerStats {
  return {
    ...stats,
    failures: { ...stats.failures },
    skippedItems: { ...stats.skippedItems },
    circuit,
    notBefore: notBefore > nowMs ? notBefore : null,
  };
}
