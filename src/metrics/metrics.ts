/**
 * Prometheus metrics (prom-client), one registry per service: degraded answers, and the live
 * feeds' poll counts, read from the pollers at scrape time (prom-client's `collect`). Served at
 * /metrics on both listeners; like /health it needs no key, so keep it on the internal network.
 */
import { constants, PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { PollerStats } from '../upstream/poller.js';
import { registerFeedGauges } from './feed-gauges.js';
import { createHttpMetrics, type HttpMetrics } from './http-metrics.js';
import { createSemconvMetrics, type SemconvMetrics } from './semconv/semconv-metrics.js';
import { registerSpanExportCounts } from './span-export-counts.js';
import { registerWebhookQueueGauges } from './webhook-queue-gauges.js';

interface ServiceMetrics {
  registry: Registry;
  degradedAnswers: Counter<'where'>;
  /** Refusals for a spent quota (429), by variant and product. */
  quotaRejections: Counter<'variant' | 'product'>;
  /** Movement alerts detected and price alerts that changed state, by kind. */
  alerts: Counter<'kind'>;
  /** /graphql requests by who answered: the compiled fast path or Apollo. */
  graphqlRequests: Counter<'path'>;
  untrustedOperations: Counter<string>;
  /** Subscriptions started, by listener. */
  subscriptions: Counter<'variant'>;
  /** Where the number of open subscriptions is read at scrape time. */
  watchOpenSubscriptions(count: () => number): void;
  /** Where the live feeds' stats come from. */
  watchFeeds(stats: () => PollerStats[]): void;
  /** Webhook deliveries that reached an outcome: delivered, retried (an attempt failed, another is due), failed. */
  webhookDeliveries: Counter<'outcome'>;
  /** Webhook attempts by result: 2xx, 3xx, 4xx, 5xx, timeout, refused (destination not allowed), error (connection). */
  webhookAttempts: Counter<'result'>;
  /** Where the webhook queue's depth and oldest pending delivery are read at scrape time. */
  watchWebhookQueue(stats: () => Promise<{ pending: number; oldestCreatedAt: number | null }>): void;
  /** What the listeners record of each request (the service's names and the semantic conventions'). */
  http: HttpMetrics;
  /** The HTTP server, GraphQL and webhook metrics under the semantic conventions' names (also sent over OTLP when configured). */
  semconv: SemconvMetrics;
}

/** `apiPaths`: the REST routes' paths under /api/v1, each a route label of the HTTP metrics. */
export function createMetrics(apiPaths: readonly string[]): ServiceMetrics {
  const registry = new Registry();
  // Process figures (RSS, heap by space, GC pauses, event-loop lag, open handles), prefixed.
  collectDefaultMetrics({ register: registry, prefix: 'mgw_' });
  watchHeapAfterGc(registry);
  const watchFeeds = registerFeedGauges(registry);
  const watchOpenSubscriptions = registerOpenSubscriptionsGauge(registry);
  const watchWebhookQueue = registerWebhookQueueGauges(registry);
  registerSpanExportCounts(registry);
  const http = createHttpMetrics(registry, apiPaths);

  return {
    registry,
    degradedAnswers: new Counter({
      name: 'mgw_degraded_answers_total',
      help: 'Answers spoiled by an unavailable dependency (503), by where they were given',
      labelNames: ['where'],
      registers: [registry],
    }),
    quotaRejections: new Counter({
      name: 'mgw_quota_rejections_total',
      help: 'Requests refused because a quota window was spent (429), by variant and product',
      labelNames: ['variant', 'product'],
      registers: [registry],
    }),
    alerts: new Counter({
      name: 'mgw_alerts_total',
      help: 'Alerts written: movement (variant B, detected), price_triggered and price_expired (variant A)',
      labelNames: ['kind'],
      registers: [registry],
    }),
    graphqlRequests: new Counter({
      name: 'mgw_graphql_requests_total',
      help: '/graphql requests by path: compiled (executed compiled), cached (answered from kept answers, nothing executed) or apollo (mutations, introspection, requests that name no operation)',
      labelNames: ['path'],
      registers: [registry],
    }),
    untrustedOperations: new Counter({
      // No label for the hash: unknown hashes are unbounded; the log names each one.
      name: 'mgw_graphql_untrusted_operations_total',
      help: 'Operations outside the trusted documents that ran (TRUSTED_DOCUMENTS=log, or an exempt key under enforce)',
      registers: [registry],
    }),
    subscriptions: new Counter({
      name: 'mgw_subscriptions_started_total',
      help: 'GraphQL subscriptions started over WebSocket, by variant',
      labelNames: ['variant'],
      registers: [registry],
    }),
    watchFeeds,
    watchOpenSubscriptions,
    webhookDeliveries: new Counter({
      name: 'mgw_webhook_deliveries_total',
      help: 'Webhook deliveries by outcome: delivered, retried (an attempt failed and another is scheduled), failed (given up or endpoint disabled)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    webhookAttempts: new Counter({
      name: 'mgw_webhook_attempts_total',
      help: 'Webhook delivery attempts by result: 2xx, 3xx, 4xx, 5xx, timeout, refused (destination not allowed), error (connection failed)',
      labelNames: ['result'],
      registers: [registry],
    }),
    watchWebhookQueue,
    http,
    semconv: createSemconvMetrics(registry, http.points),
  };
}

/** The number of open subscriptions, read at scrape time; returns where it is read from (0 until it is called). */
function registerOpenSubscriptionsGauge(registry: Registry): (count: () => number) => void {
  let openSubscriptions = () => 0;
  new Gauge({
    name: 'mgw_subscriptions_open',
    help: 'GraphQL subscriptions open on this instance (WebSocket and Server-Sent Events)',
    registers: [registry],
    collect() {
      this.set(openSubscriptions());
    },
  });
  return (count) => {
    openSubscriptions = count;
  };
}

/**
 * The heap in use right after each major GC: what the process really holds, without the garbage
 * waiting for collection. A leak shows as this figure climbing under steady load (npm run soak).
 */
function watchHeapAfterGc(registry: Registry): void {
  const gauge = new Gauge({ name: 'mgw_heap_used_after_major_gc_bytes', help: 'V8 heap in use right after the latest major GC', registers: [registry] });
  gauge.set(v8.getHeapStatistics().used_heap_size);
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) gauge.set(v8.getHeapStatistics().used_heap_size);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
}
