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
import type { Connector, UpstreamBatch } from './connector.js';
import { UpstreamError } from './errors.js';
import type { UpstreamHttp } from './http.js';
import { inBackground } from '../telemetry/background.js';
import { newPollCounts, type PollerStats, pollStatsOf, recordFailure, recordSuccess } from './poll-stats.js';

export type { PollerStats } from './poll-stats.js';

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

export interface Poller {
  start(): void;
  /** Runs one poll now (tests, and the first poll at start). */
  pollOnce(): Promise<void>;
  stop(): Promise<void>;
  stats(): PollerStats;
}

/** Retries within one poll, for transient failures only; each retry logged. */
function retryPolicyOf(options: PollerOptions, log: Logger) {
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
  return retryPolicy;
}

/** A wait between two requests of one poll, cut short (as a cancelled poll) by `signal`. */
async function pauseUnless(ms: number, signal: AbortSignal): Promise<void> {
  try {
    await sleep(ms, undefined, { signal, ref: false });
  } catch {
    throw new TaskCancelledError('poller stopped');
  }
}

export function createPoller(options: PollerOptions): Poller {
  const { connector, http, logger } = options;
  const source = connector.source;
  const log = logger.child({ source });
  const spanName = `poll ${source}`;
  const retryPolicy = retryPolicyOf(options, log);
  const stats = newPollCounts(source);
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
  const pause = (ms: number) => pauseUnless(ms, abort.signal);

  /** One poll (its retries included), the root of a trace of its own when traced: its requests and what the batch wrote under it. */
  async function pollOnce(): Promise<void> {
    try {
      await inBackground(spanName, () => ({ 'mgw.source': source }), poll);
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
      recordSuccess(stats, batch, log, options.now, started);
    } catch (error) {
      if (error instanceof TaskCancelledError) return;
      recordFailure(stats, error, log);
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
    stats: () => pollStatsOf(stats, http.gate.circuit(), notBefore, Date.now()),
  };
}
