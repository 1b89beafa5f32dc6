/**
 * One attempt at a webhook delivery: signed (with both secrets during a rotation), sent, its
 * outcome decided by the retry schedule and recorded once (a conditional update); an endpoint
 * failing for the whole schedule, or answering 410, is disabled.
 */
import type { Logger } from 'pino';
import type { DueDelivery, DueEndpoint, WebhookRepository } from '../store/webhooks.js';
import type { ConnectAgents } from './destination.js';
import { type AttemptDecision, type AttemptResult, decide, MAX_ATTEMPTS, RETRY_DELAYS_MS } from './retry-schedule.js';
import { sendAttempt } from './send.js';
import { signDelivery } from './signing.js';
import { inBackground } from '../telemetry/background.js';
import { sendTraced, traceAnswer, traceNoAnswer } from '../telemetry/outgoing.js';
import type { SpanHandle } from '../telemetry/tracing.js';

/** What an attempt needs; the delivery worker's options add how many run at once and how often the queue is read. */
export interface AttemptOptions {
  repo: WebhookRepository;
  agents: ConnectAgents;
  /** Per attempt (WEBHOOK_TIMEOUT_MS, 10 s by default). */
  timeoutMs: number;
  userAgent: string;
  now: () => number;
  /** Spreads retries (jitter); injectable for tests. */
  random?: () => number;
  logger: Logger;
  /** Each attempt's result and how long it took (never where it went: a customer's receiver is theirs). */
  onAttempt?: (result: AttemptResult, seconds: number) => void;
  onOutcome?: (outcome: 'delivered' | 'retried' | 'failed') => void;
}

/** A connection's failure as a short type (a span's and a metric's `error.type`): its system code, a timeout, or the destination's refusal. */
export function failureType(error: string): string {
  if (error.startsWith('no answer')) return 'timeout';
  if (error.startsWith('destination refused')) return 'destination_refused';
  return /^[A-Z][A-Z0-9_]+\b/.exec(error)?.[0] ?? '_OTHER';
}

const traceAttempt = (span: SpanHandle, result: AttemptResult) =>
  result.kind === 'answered' ? traceAnswer(span, result.status) : traceNoAnswer(span, failureType(result.error));

const SCHEDULE_SPAN_HOURS = Math.round(RETRY_DELAYS_MS.reduce((a, b) => a + b, 0) / 3_600_000);

/** The attempt of a due delivery; resolves once its outcome is recorded (or at once when `signal` stopped it). */
export function createAttemptRunner(options: AttemptOptions) {
  const { repo, logger } = options;
  const random = options.random ?? Math.random;

  /** An attempt, as the root of a trace of its own when traced, linked to the span that wrote its event. */
  function attempt(endpoint: DueEndpoint, delivery: DueDelivery, signal: AbortSignal): Promise<void> {
    const attributes = () => ({ 'mgw.webhook.delivery.id': delivery.id, 'mgw.webhook.endpoint.id': endpoint.id, 'mgw.webhook.attempt': delivery.attempts + 1 });
    return inBackground('webhook delivery', attributes, () => attemptNow(endpoint, delivery, signal), delivery.traceParent);
  }

  async function attemptNow(endpoint: DueEndpoint, delivery: DueDelivery, signal: AbortSignal): Promise<void> {
    const number = delivery.attempts + 1;
    const at = options.now();
    const rotating = endpoint.previousSecret !== null && endpoint.previousSecretUntil !== null && endpoint.previousSecretUntil > at;
    const headers = signDelivery({
      id: delivery.id,
      body: delivery.body,
      at,
      secrets: rotating ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret],
    });
    const sent = performance.now();
    // The traceparent is beside the signature's headers, not in what they sign.
    const result = await sendTraced('POST', endpoint.url, 'secret', async (traceHeaders, span) => {
      const answer = await sendAttempt(
        { url: endpoint.url, body: delivery.body, headers: { ...headers, ...traceHeaders } },
        { agents: options.agents, timeoutMs: options.timeoutMs, userAgent: options.userAgent, signal },
      );
      if (span) traceAttempt(span, answer);
      return answer;
    });
    // Stopped mid-attempt (shutdown, lease lost): not an attempt; whoever runs next sends it.
    if (signal.aborted) return;
    options.onAttempt?.(result, (performance.now() - sent) / 1000);
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

  return attempt;
}
