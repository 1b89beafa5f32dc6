/** The jobs' webhook delivery worker: its connections, and its attempts and outcomes counted for /metrics. */
import { packageVersion } from '../package-info.js';
import { createConnectAgents } from '../webhooks/destination.js';
import { failureType } from '../webhooks/delivery-attempt.js';
import { createDeliveryWorker } from '../webhooks/delivery-worker.js';
import type { ClientRequest } from '../metrics/semconv/semconv-metrics.js';
import type { AttemptResult } from '../webhooks/retry-schedule.js';
import type { JobDeps } from './job-deps.js';

/** An attempt's result as the deprecated mgw_webhook_attempts_total's label: the status class, or how it failed. */
function attemptResultLabel(result: AttemptResult): string {
  if (result.kind === 'answered') return `${Math.floor(result.status / 100)}xx`;
  if (result.error.startsWith('destination refused')) return 'refused';
  return result.error.startsWith('no answer within') ? 'timeout' : 'error';
}

/** An attempt as an HTTP client request of the semantic conventions: its status, or why there was none (as its span says). */
function clientRequestOf(result: AttemptResult): ClientRequest {
  if (result.kind === 'answered') return { status: result.status, ...(result.status >= 400 ? { errorType: String(result.status) } : {}) };
  return { errorType: failureType(result.error) };
}

/** The worker, and the connections it keeps alive (destroyed after the jobs' last stop). */
export function buildWebhookWorker({ config, stores, metrics, logger, now }: Pick<JobDeps, 'config' | 'stores' | 'metrics' | 'logger' | 'now'>) {
  const webhookAgents = createConnectAgents(config.webhooks.policy);
  const webhooks = createDeliveryWorker({
    repo: stores.jobsStore.webhooks,
    agents: webhookAgents,
    ...config.webhooks,
    userAgent: `market-gateway/${packageVersion()} (webhooks)`,
    now,
    logger,
    onAttempt: (result, seconds) => {
      metrics.webhookAttempts.inc({ result: attemptResultLabel(result) });
      metrics.semconv.webhookRequest(clientRequestOf(result), seconds);
    },
    onOutcome: (outcome) => metrics.webhookDeliveries.inc({ outcome }),
  });
  return { webhookAgents, webhooks };
}
