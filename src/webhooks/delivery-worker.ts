/**
 * Sends the pending webhook deliveries. One process runs it (the jobs' one, under the lease on
 * PostgreSQL). It takes due deliveries from the store's queue, at most `concurrency` at a time and
 * `perEndpoint` per endpoint, so a slow or dead receiver holds only its own slots; each attempt's
 * outcome is recorded once (conditional update), and a delivery still pending when the process
 * dies is sent again by the next one: at least once, with the same `webhook-id`.
 */
import type { DueDelivery, DueEndpoint } from '../store/webhooks.js';
import { outsideStoreDeadline } from '../deadline/request-deadline.js';
import { type AttemptOptions, createAttemptRunner } from './delivery-attempt.js';

export interface DeliveryWorkerOptions extends AttemptOptions {
  /** Attempts in flight at once, in all (WEBHOOK_CONCURRENCY). */
  concurrency: number;
  /** Attempts in flight at once to one endpoint (WEBHOOK_ENDPOINT_CONCURRENCY). */
  perEndpoint: number;
  /** How often the queue is read when nothing wakes the worker (deliveries queued by the CLI, retries coming due). */
  pollMs: number;
  /** Deliveries that ended longer ago than this are forgotten (WEBHOOK_RETENTION_DAYS); checked hourly. */
  retentionMs: number;
}

const PRUNE_EVERY_MS = 3_600_000;

interface InFlight {
  endpointId: string;
  done: Promise<void>;
  abort: AbortController;
}

/**
 * Starts every due delivery there is room for; returns when they are started (not finished).
 * Endpoints first (those at their cap are not asked about), then each one's due deliveries, so an
 * endpoint's backlog is read only when it has a free slot.
 */
async function fill(
  options: DeliveryWorkerOptions,
  inFlight: ReadonlyMap<string, InFlight>,
  running: () => boolean,
  start: (endpoint: DueEndpoint, delivery: DueDelivery) => void,
): Promise<void> {
  const { repo } = options;
  // `running` is checked after every read: a read under way when stop() came must start nothing,
  // or an attempt stop() already abandoned (and took out of `inFlight`) would be sent again.
  while (running()) {
    const room = options.concurrency - inFlight.size;
    if (room <= 0) return;
    const counts = perEndpointCount(inFlight);
    const busy = [...counts].filter(([, n]) => n >= options.perEndpoint).map(([id]) => id);
    const endpoints = await repo.dueEndpoints(options.now(), room, busy);
    let started = 0;
    for (const endpoint of endpoints) {
      if (!running()) return;
      const inFlightHere = [...inFlight].filter(([, f]) => f.endpointId === endpoint.id).map(([id]) => id);
      const slots = Math.min(options.perEndpoint - inFlightHere.length, options.concurrency - inFlight.size);
      if (slots <= 0) continue;
      const due = await repo.dueDeliveries(endpoint.id, options.now(), slots, inFlightHere);
      if (!running()) return;
      // Nothing due after all (its next delivery was put off): the endpoint leaves the due ones.
      if (due.length === 0 && inFlightHere.length === 0) await repo.refreshNextDue(endpoint.id);
      for (const delivery of due) start(endpoint, delivery);
      started += due.length;
    }
    if (started === 0) return;
  }
}

function perEndpointCount(inFlight: ReadonlyMap<string, InFlight>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { endpointId } of inFlight.values()) counts.set(endpointId, (counts.get(endpointId) ?? 0) + 1);
  return counts;
}

async function prune(options: DeliveryWorkerOptions): Promise<void> {
  const { logger } = options;
  try {
    const forgotten = await options.repo.pruneFinished(options.now() - options.retentionMs);
    if (forgotten > 0) logger.info({ forgotten }, 'webhook deliveries past retention forgotten');
  } catch (error) {
    logger.warn({ err: error }, 'webhook deliveries could not be pruned; trying again in an hour');
  }
}

export function createDeliveryWorker(options: DeliveryWorkerOptions) {
  const { logger } = options;
  const attempt = createAttemptRunner(options);
  const inFlight = new Map<string, InFlight>();
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let pruneTimer: NodeJS.Timeout | undefined;
  let pumping: Promise<void> | undefined;
  let pumpAgain = false;

  /** Reads the queue now; a call while it is being read makes it read again after. */
  function pump(): Promise<void> {
    if (pumping) {
      pumpAgain = true;
      return pumping;
    }
    pumping = (async () => {
      do {
        pumpAgain = false;
        if (!running) break;
        await fill(options, inFlight, () => running, start).catch((error: unknown) =>
          logger.warn({ err: error }, 'webhook queue could not be read; retrying at the next poll'),
        );
      } while (pumpAgain);
    })().finally(() => {
      pumping = undefined;
    });
    return pumping;
  }

  function start(endpoint: DueEndpoint, delivery: DueDelivery): void {
    const abort = new AbortController();
    const done = attempt(endpoint, delivery, abort.signal)
      .catch((error: unknown) => logger.warn({ err: error, deliveryId: delivery.id }, 'webhook attempt could not be recorded; it will be sent again'))
      .finally(() => {
        inFlight.delete(delivery.id);
        void pump();
      });
    inFlight.set(delivery.id, { endpointId: delivery.endpointId, done, abort });
  }

  return {
    start(): void {
      if (running) return;
      running = true;
      timer = setInterval(() => void pump(), options.pollMs);
      timer.unref();
      pruneTimer = setInterval(() => void prune(options), PRUNE_EVERY_MS);
      pruneTimer.unref();
      void prune(options);
      void pump();
    },
    /**
     * New deliveries were queued (an alert moved, a mutation asked): read the queue now rather than
     * at the next poll. Resolves once it was read. The attempts it starts outlive the request that
     * may have woken it, so they run outside its deadline.
     */
    wake(): Promise<void> {
      return running ? outsideStoreDeadline(pump) : Promise.resolve();
    },
    /** Reads the queue and waits for the attempts it started, and for the ones they made room for (tests, bench). */
    async drain(): Promise<void> {
      do {
        await pump();
        await Promise.all([...inFlight.values()].map((f) => f.done));
      } while (inFlight.size > 0 || pumping);
    },
    /** Stops reading the queue; attempts in flight are abandoned unrecorded, to be sent again by whoever runs next. */
    async stop(): Promise<void> {
      running = false;
      clearInterval(timer);
      clearInterval(pruneTimer);
      for (const flight of inFlight.values()) flight.abort.abort();
      await Promise.all([...inFlight.values()].map((f) => f.done));
      await pumping;
    },
    inFlight: () => inFlight.size,
  };
}

export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>;
