/**
 * The HTTP server, GraphQL and webhook metrics under the OpenTelemetry semantic conventions'
 * names, recorded once as plain numbers and read two ways: on /metrics in their Prometheus
 * rendering (prometheus-rendering.ts), and by the OTLP exporter when one is configured (`source`,
 * read by src/telemetry at each export). docs/observability.md lists them.
 */
import type { ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import type { MetricSource } from '../../telemetry/metric-points.js';
import { boundedOperationName } from '../../telemetry/operation-span.js';
import { createActiveRequests } from './active-requests.js';
import { createHistogramSeries, DURATION_BOUNDS } from './histogram-series.js';
import { methodOf } from './http-method.js';
import { registerRendering } from './prometheus-rendering.js';

/** What the listeners record: a request begun, and its answer once finished. */
export interface ServerMetrics {
  begun(res: ServerResponse): void;
  answered(res: ServerResponse, route: string, seconds: number, variant: string): void;
}

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
  server: ServerMetrics;
  /** A /graphql operation the edge admitted, from its admission to its answer. */
  graphqlOperation(name: string | undefined, type: string, seconds: number): void;
  webhookRequest(request: ClientRequest, seconds: number): void;
  source: MetricSource;
}

export function createSemconvMetrics(registry: Registry): SemconvMetrics {
  const serverDuration = createHistogramSeries({
    name: 'http.server.request.duration',
    unit: 's',
    description: 'Duration of HTTP server requests, to the last byte of the answer',
    bounds: DURATION_BOUNDS,
    attributes: ['http.request.method', 'http.route', 'http.response.status_code', 'url.scheme', 'mgw.variant'],
  });
  const active = createActiveRequests();
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
  const reads = [serverDuration.points, active.points, operations.points, clientDuration.points];
  for (const read of reads) registerRendering(registry, read);

  return {
    server: {
      begun: active.begun,
      answered(res, route, seconds, variant) {
        active.ended(res);
        serverDuration.record([methodOf(res.req.method), route, res.statusCode, 'http', variant], seconds);
      },
    },
    graphqlOperation: (name, type, seconds) => operations.record([name === undefined ? name : boundedOperationName(name), type], seconds),
    webhookRequest: ({ status, errorType }, seconds) => clientDuration.record(['POST', status, errorType, 'webhook'], seconds),
    source: () => reads.map((read) => read()),
  };
}
