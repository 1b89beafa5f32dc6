/**
 * The GraphQL and webhook metrics under the OpenTelemetry semantic conventions' names, recorded
 * once as plain numbers and read two ways: on /metrics in their Prometheus rendering
 * (prometheus-rendering.ts), and by the OTLP exporter when one is configured (`source`, read by
 * src/telemetry at each export, with the HTTP server's, which the listeners record in
 * ../http-metrics.ts). docs/observability.md lists them.
 */
import type { Registry } from 'prom-client';
import type { MetricSource } from '../../telemetry/metric-points.js';
import { boundedOperationName } from '../../telemetry/operation-span.js';
import { createHistogramSeries, DURATION_BOUNDS } from './histogram-series.js';
import { registerRendering } from './prometheus-rendering.js';

/**
 * An HTTP request this service made as a client (a webhook delivery's attempt). Not where it went:
 * /metrics is read without a key, and a customer's receiver (its host may be a token) is theirs.
 */
export interface ClientRequest {
  /** The answer's status, when there was one. */
  status?: number;
  /** Why there was no good answer: the status as text (4xx, 5xx), or how the connection failed (`timeout`, `destination_refused`, a system code). */
  errorType?: string;
}

export interface SemconvMetrics {
  /** A /graphql operation the edge admitted, from its admission to its answer. */
  graphqlOperation(name: string | undefined, type: string, seconds: number): void;
  webhookRequest(request: ClientRequest, seconds: number): void;
  source: MetricSource;
}

/** `server`: the HTTP server's instruments (http-metrics.ts), first in the export. */
export function createSemconvMetrics(registry: Registry, server: MetricSource): SemconvMetrics {
  const operations = createHistogramSeries({
    name: 'graphql.server.operation.duration',
    unit: 's',
    description: 'Duration of the GraphQL operations admitted on /graphql, by operation name and type',
    bounds: DURATION_BOUNDS,
    attributes: ['graphql.operation.name', 'graphql.operation.type'],
    // Operation names are the client's: past this many, one overflow series.
    maxSeries: 500,
  });
  const clientDuration = createHistogramSeries({
    name: 'http.client.request.duration',
    unit: 's',
    description: 'Duration of HTTP client requests: webhook delivery attempts',
    bounds: DURATION_BOUNDS,
    attributes: ['http.request.method', 'http.response.status_code', 'error.type', 'mgw.client'],
  });
  const reads = [operations.points, clientDuration.points];
  for (const read of reads) registerRendering(registry, read);

  return {
    graphqlOperation: (name, type, seconds) => operations.record([name === undefined ? name : boundedOperationName(name), type], seconds),
    webhookRequest: ({ status, errorType }, seconds) => clientDuration.record(['POST', status, errorType, 'webhook'], seconds),
    source: () => [...server(), ...reads.map((read) => read())],
  };
}
