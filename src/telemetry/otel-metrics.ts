/**
 * The metrics over OTLP/HTTP, loaded only when metrics-export.ts finds the standard variables
 * asking for them: a PeriodicExportingMetricReader (every OTEL_METRIC_EXPORT_INTERVAL, 60 s by
 * default) whose one producer reads the service's own points (metric-points.ts), so the request
 * path records plain numbers whether or not this module is loaded. Points are cumulative, as on
 * /metrics. A collector that is down or slow loses an export, never holds a request: the export runs
 * off the request path, bounded by OTEL_METRIC_EXPORT_TIMEOUT.
 */
import { ValueType } from '@opentelemetry/api';
import {
  AggregationTemporality,
  DataPointType,
  type MetricData,
  MeterProvider,
  type MetricProducer,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
} from '@opentelemetry/sdk-metrics';
import type { MetricPoints, MetricSource } from './metric-points.js';
import { resourceOf } from './otel-resource.js';
import { atMost, protocolOf, signalUrlOf } from './otlp-settings.js';
import type { OtelEnv } from './types.js';

async function exporterOf(env: OtelEnv, warn: (message: string) => void): Promise<PushMetricExporter> {
  const url = signalUrlOf(env, 'METRICS');
  if (protocolOf(env, 'METRICS', warn) === 'http/json') return new (await import('@opentelemetry/exporter-metrics-otlp-http')).OTLPMetricExporter({ url });
  return new (await import('@opentelemetry/exporter-metrics-otlp-proto')).OTLPMetricExporter({ url });
}

const hrTime = (ms: number): [number, number] => [Math.floor(ms / 1000), Math.round((ms % 1000) * 1e6)];

/** The SDK's shape of one metric's points, cumulative from its start. */
function metricDataOf(metric: MetricPoints, nowMs: number): MetricData {
  const descriptor = { name: metric.name, unit: metric.unit, description: metric.description, valueType: ValueType.DOUBLE };
  const times = { startTime: hrTime(metric.startMs), endTime: hrTime(nowMs) };
  if (metric.kind === 'histogram')
    return {
      descriptor,
      aggregationTemporality: AggregationTemporality.CUMULATIVE,
      dataPointType: DataPointType.HISTOGRAM,
      dataPoints: metric.points.map((p) => ({
        ...times,
        attributes: p.attributes,
        value: { buckets: { boundaries: [...metric.bounds], counts: [...p.counts] }, sum: p.sum, count: p.count },
      })),
    };
  return {
    descriptor,
    aggregationTemporality: AggregationTemporality.CUMULATIVE,
    dataPointType: DataPointType.SUM,
    isMonotonic: metric.kind === 'counter',
    dataPoints: metric.points.map((p) => ({ ...times, attributes: p.attributes, value: p.value })),
  };
}

const positive = (value: string | undefined, otherwise: number) => (Number(value) > 0 ? Number(value) : otherwise);

export async function createMetricsExport(env: OtelEnv, source: MetricSource, warn: (message: string) => void) {
  const resource = resourceOf(env);
  const producer: MetricProducer = {
    collect: async () => ({
      resourceMetrics: {
        resource,
        scopeMetrics: [{ scope: { name: 'market-gateway' }, metrics: source().map((m) => metricDataOf(m, Date.now())) }],
      },
      errors: [],
    }),
  };
  const exportIntervalMillis = positive(env.OTEL_METRIC_EXPORT_INTERVAL, 60_000);
  const reader = new PeriodicExportingMetricReader({
    exporter: await exporterOf(env, warn),
    exportIntervalMillis,
    exportTimeoutMillis: Math.min(positive(env.OTEL_METRIC_EXPORT_TIMEOUT, 30_000), exportIntervalMillis),
    metricProducers: [producer],
  });
  const provider = new MeterProvider({ resource, readers: [reader] });
  return {
    /** Sends the last points and stops, within `timeoutMs` (a hung collector costs at most that). */
    shutdown: (timeoutMs: number): Promise<void> => atMost(timeoutMs, provider.shutdown()),
  };
}
