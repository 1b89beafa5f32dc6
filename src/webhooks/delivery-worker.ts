/**
 * Sends the pending webhook deliveries. One process runs it (the jobs' one, under the lease on
 * PostgreSQL). It takes due deliveries from the store's queue, at most `concurrency` at a time and
 * `perEndpoint` per endpoint, so a slow or dead receiver holds only its own slots; each attempt's
 * outcome is recorded once (conditional update), and a delivery still pending when the process
 * dies is sent again by the next one: at least once, with the same `webhook-id`.
 */
import type { Logger } from 'pino';
import type { DueDelivery, DueEndpoint, WebhookRepository } from '../store/webhooks.js';
import { outsideStoreDeadline } from '../deadline/request-deadline.js';
import type { ConnectAgents } from './destination.js';
import { type AttemptDecision, type AttemptResult, decide, MAX_ATTEMPTS, RETRY_DELAYS_MS } from './retry-schedule.js';
import { sendAttempt } from './send.js';
import { signDelivery } from './signing.js';

export interface DeliveryWorkerOptions {
  repo: WebhookRepository;
  agents: ConnectAgents;
  /** Per attempt (WEBHOOK_TIMEOUT_MS, 10 s by default). */
  timeoutMs: number;
  /** Attempts in flight at once, in all (WEBHOOK_CONCURRENCY). */
  concurrency: number;
  /** Attempts in flight at once to one endpoint (WEBHOOK_ENDPOINT_CONCURRENCY). */
  perEndpoint: number;
  /** How often the queue is read when nothing wakes the worker (deliveries queued by the CLI, retries coming due). */
  pollMs: number;
  userAgent: string;
  /** Deliveries that ended longer ago than this are forgotten (WEBHOOK_RETENTION_DAYS); checked hourly. */
  retentionMs: number;
  now: () => number;
  /** Spreads retries (jitter); injectable for tests. */
  random?: () => number;
  logger: Logger;
  onAttempt?: (result: AttemptResult) => void;
  onOutcome?: (outcome: 'delivered' | 'retried' | 'failed') => void;
}

const PRUNE_EVERY_MS = 3_600_000;
const SCHEDULE_SPAN_HOURS = Math.round(RETRY_DELAYS_MS.reduce((a, b) => a + b, 0) / 3_600_000);

export function createDeliveryWorker(options: DeliveryWorkerOptions) {
  const { repo, logger } = options;
  const random = options.random ?? Math.random;
  const inFlight = new Map<string, { endpointId: string; done: Promise<void>; abort: AbortController }>();
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let pruneTimer: NodeJS.Timeout | undefined;
  let pumping: Promise<void> | undefined;
  let pumpAgain = false;

  const perEndpointCount = () => {
    const counts = new Map<string, number>();
    for (const { endpointId } of inFlight.values()) counts.set(endpointId, (counts.get(endpointId) ?? 0) + 1);
    return counts;
  };

  /**
   * Starts every due delivery there is room for; returns when they are started (not finished).
   * Endpoints first (those at their cap are not asked about), then each one's due deliveries, so an
   * endpoint's backlog is read only when it has a free slot.
   */
  async function fill(): Promise<void> {
    // `running` is checked after every read: a read under way when stop() came must start nothing,
    // or an attempt stop() already abandoned (and took out of `inFlight`) would be sent again.
    while (running) {
      const room = options.concurrency - inFlight.size;
      if (room <= 0) return;
      const counts = perEndpointCount();
      const busy = [...counts].filter(([, n]) => n >= options.perEndpoint).map(([id]) => id);
      const endpoints = await repo.dueEndpoints(options.now(), room, busy);
      let started = 0;
      for (const endpoint of endpoints) {
        if (!running) return;
        const inFlightHere = [...inFlight].filter(([, f]) => f.endpointId === endpoint.id).map(([id]) => id);
        const slots = Math.min(options.perEndpoint - inFlightHere.length, options.concurrency - inFlight.size);
        if (slots <= 0) continue;
        const due = await repo.dueDeliveries(endpoint.id, options.now(), slots, inFlightHere);
        if (!running) return;
        // Nothing due after all (its next delivery was put off): the endpoint leaves the due ones.
        if (due.length === 0 && inFlightHere.length === 0) await repo.refreshNextDue(endpoint.id);
        for (const delivery of due) start(endpoint, delivery);
        started += due.length;
      }
      if (started === 0) return;
    }
  }

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
        await fill().catch((error: unknown) => logger.warn({ err: error }, 'webhook queue could not be read; retrying at the next poll'));
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

  async function attempt(endpoint: DueEndpoint, delivery: DueDelivery, signal: AbortSignal): Promise<void> {
    const number = delivery.attempts + 1;
    const at = options.now();
    const rotating = endpoint.previousSecret !== null && endpoint.previousSecretUntil !== null && endpoint.previousSecretUntil > at;
    const headers = signDelivery({
      id: delivery.id,
      body: delivery.body,
      at,
      secrets: rotating ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret],
    });
    const result = await sendAttempt(
      { url: endpoint.url, body: delivery.body, headers: { ...headers } },
      { agents: options.agents, timeoutMs: options.timeoutMs, userAgent: options.userAgent, signal },
    );
    // Stopped mid-attempt (shutdown, lease lost): not an attempt; whoever runs next sends it.
    if (signal.aborted) return;
    options.onAttempt?.(result);
    const finished = options.now();
    const decision = decide(result, number, finished, random());
    await record(endpoint, delivery, number, finished, result, decision);
    // A retry put off, or the last due one done: the endpoint's place in the queue moves. If that
    // fails, the endpoint stays early in the queue: the worker only looks at it again for nothing.
    await repo.refreshNextDue(endpoint.id).catch(() => undefined);
  }

  async function record(
    endpoint: DueEndpoint,
    delivery: DueDelivery,
    number: number,
    at: number,
    result: AttemptResult,
    decision: AttemptDecision,
  ): Promise<void> {
    const answer = result.kind === 'answered' ? { httpStatus: result.status, response: result.response } : { httpStatus: null, response: null };
    const where = { deliveryId: delivery.id, endpointId: endpoint.id, destination: new URL(endpoint.url).origin, attempt: number };
    if (decision.next === 'delivered') {
      if (await repo.recordAttempt(delivery.id, number, { status: 'delivered', at, nextAttemptAt: at, error: null, ...answer }))
        options.onOutcome?.('delivered');
      return;
    }
    if (decision.next === 'retry') {
      if (!(await repo.recordAttempt(delivery.id, number, { status: 'pending', at, nextAttemptAt: decision.at, error: decision.error, ...answer }))) return;
      options.onOutcome?.('retried');
      logger.info({ ...where, error: decision.error, nextAttemptAt: new Date(decision.at).toISOString() }, 'webhook attempt failed; will retry');
      return;
    }
    const error = decision.next === 'disable' ? decision.reason : decision.error;
    if (!(await repo.recordAttempt(delivery.id, number, { status: 'failed', at, nextAttemptAt: at, error, ...answer }))) return;
    options.onOutcome?.('failed');
    const reason =
      decision.next === 'disable'
        ? decision.reason
        : (await repo.deliveredSince(delivery.endpointId, delivery.createdAt))
          ? undefined
          : `every delivery failed for the whole retry schedule (${MAX_ATTEMPTS} attempts over about ${SCHEDULE_SPAN_HOURS} h); last: ${error}`;
    logger.warn({ ...where, error }, 'webhook delivery failed');
    if (reason && (await repo.disableEndpoint(delivery.endpointId, reason, at))) {
      logger.warn({ endpointId: delivery.endpointId, reason }, 'webhook endpoint disabled');
    }
  }

  async function prune(): Promise<void> {
    try {
      const forgotten = await repo.pruneFinished(options.now() - options.retentionMs);
      if (forgotten > 0) logger.info({ forgotten }, 'webhook deliveries past retention forgotten');
    } catch (error) {
      logger.warn({ err: error }, 'webhook deliveries could not be pruned; trying again in an hour');
    }
  }

  return {
    start(): void {
      if (running) return;
      running = true;
      timer = setInterval(() => void pump(), options.pollMs);
      timer.unref();
      pruneTimer = setInterval(() => void prune(), PRUNE_EVERY_MS);
      pruneTimer.unref();
      void prune();
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
