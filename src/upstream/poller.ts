/**
 * Polls one connector forever: on its interval, with retries (exponential backoff, half jitter)
 * for transient failures. The source's gate (gate.ts, inside its UpstreamHttp) refuses
 * requests while the upstream has asked us to wait or its circuit is open; the poller pushes the
 * next poll past any such wait. Each good batch goes to the sink (ingest); a failed poll keeps the
 * last good data where it is. Nothing here throws: every outcome is logged and counted.
 */
import { ExponentialBackoff, halfJitterGenerator, handleWhen, retry, TaskCancelledError } from 'cockatiel';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Connector, SkippedItems, UpstreamBatch } from './connector.js';
import { UpstreamError } from './errors.js';
import type { CircuitName } from './gate.js';
import type { UpstreamHttp } from './http.js';

export interface PollerOptions {
  connector: Connector;
  http: UpstreamHttp;
  sink: (batch: UpstreamBatch) => Promise<void>;
  pollMs: number;
  logger: Logger;
  now: () => number;
  /** Attempts per poll for transient failures (default 3). */
  attempts?: number;
  /** First retry delay (default 500 ms, doubling, at most 10 s); each wait is between half of it and all of it. */
  retryDelayMs?: number;
}

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

export interface Poller {
  start(): void;
  /** Runs one poll now (tests, and the first poll at start). */
  pollOnce(): Promise<void>;
  stop(): Promise<void>;
  stats(): PollerStats;
}

export function createPoller(options: PollerOptions): Poller {
  const { connector, http, logger } = options;
  const source = connector.source;
  const log = logger.child({ source });

  // Rate limits and an open circuit are not retried within a poll (not `retryable`): the gate refuses until their time is up.
  const retryPolicy = retry(
    handleWhen((e) => e instanceof UpstreamError && e.retryable),
    {
      maxAttempts: Math.max(0, (options.attempts ?? 3) - 1),
      // Half jitter, not cockatiel's default (decorrelated): that can draw a first wait near 0 ms,
      // a retry on the heels of the failure it follows.
      backoff: new ExponentialBackoff({ generator: halfJitterGenerator, initialDelay: options.retryDelayMs ?? 500, maxDelay: 10_000 }),
    },
  );
  // The backoff wait cannot be cancelled; unref'd, it does not hold the process at shutdown.
  retryPolicy.dangerouslyUnref();
  // cockatiel 4 types a thrown value as `unknown` (no longer cast to Error).
  retryPolicy.onRetry((event) => {
    const reason = 'error' in event ? (event.error instanceof Error ? event.error.message : String(event.error)) : 'result';
    log.warn({ delayMs: Math.round(event.delay), reason }, 'upstream attempt failed; retrying');
  });

  const stats: Omit<PollerStats, 'circuit' | 'notBefore'> = {
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
  let backfilled = false;
  let timer: NodeJS.Timeout | undefined;
  /** The sink call in flight: stop() waits for it, so no ingest write is cut in half. */
  let sinking: Promise<void> | undefined;
  let stopped = false;
  // Stops further retries on stop; a poll still waiting out a backoff ends without calling the sink.
  let abort = new AbortController();
  /** When the upstream asked us to wait (read from the gate after each poll): the next poll is not before this. */
  let notBefore = 0;

  /** A wait between two requests of one poll, cut short (as a cancelled poll) by stop(). */
  async function pause(ms: number): Promise<void> {
    try {
      await sleep(ms, undefined, { signal: abort.signal, ref: false });
    } catch {
      throw new TaskCancelledError('poller stopped');
    }
  }

  async function pollOnce(): Promise<void> {
    try {
      await poll();
    } finally {
      // Successful or not: a 429 on the last page of a poll still delays the next one.
      notBefore = Math.max(notBefore, http.gate.heldUntil() ?? 0);
    }
  }

  async function poll(): Promise<void> {
    stats.polls++;
    const started = Date.now();
    try {
      const batch = await retryPolicy.execute(({ signal }) => {
        // A retry that woke up after stop() makes no request.
        if (signal.aborted) throw new TaskCancelledError('poller stopped');
        return connector.poll({ http, now: options.now(), backfill: !backfilled, pollMs: options.pollMs, sleep: pause });
      }, abort.signal);
      if (stopped) return;
      sinking = options.sink(batch);
      await sinking.finally(() => (sinking = undefined));
      backfilled = true;
      stats.succeeded++;
      stats.lastOutcome = 'succeeded';
      stats.lastSuccessAt = options.now();
      stats.invalidItems += batch.problems.invalid;
      for (const [reason, n] of Object.entries(batch.skipped)) stats.skippedItems[reason] = (stats.skippedItems[reason] ?? 0) + n;
      const items = batch.kind === 'market-data' ? { quotes: batch.quotes.length, candles: batch.candles.length } : { observations: batch.observations.length };
      if (batch.problems.invalid > 0) {
        log.warn({ invalid: batch.problems.invalid, examples: batch.problems.examples }, 'upstream items failed validation; kept the rest');
      }
      log.debug({ markets: batch.markets.length, ...items, skipped: batch.skipped, ms: Date.now() - started }, 'upstream polled');
    } catch (error) {
      if (error instanceof TaskCancelledError) return;
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
  }

  function schedule(): void {
    if (stopped) return;
    const delay = Math.max(options.pollMs, notBefore - Date.now());
    timer = setTimeout(() => void pollOnce().finally(schedule), delay);
    timer.unref();
  }

  return {
    start() {
      stopped = false;
      if (abort.signal.aborted) abort = new AbortController();
      schedule();
    },
    pollOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      abort.abort();
      await sinking?.catch(() => undefined);
    },
    stats: () => ({
      ...stats,
      failures: { ...stats.failures },
      skippedItems: { ...stats.skippedItems },
      circuit: http.gate.circuit(),
      notBefore: notBefore > Date.now() ? notBefore : null,
    }),
  };
}
