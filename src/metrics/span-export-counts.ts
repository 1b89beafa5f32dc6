/**
 * What became of the spans that did not reach the collector, on /metrics while traces are on:
 * `mgw_otel_spans_dropped_total{error_type}` (`queue_full`: the bounded queue was full; any other
 * value: the export failed with that error, and its batch is lost) and `mgw_otel_span_queue_size`.
 * Read from the SDK's own counts at scrape time; absent while traces are off.
 */
import type { Registry } from 'prom-client';
import { activeTracing } from '../telemetry/tracing.js';

const DROPPED = 'mgw_otel_spans_dropped_total';
const DROPPED_HELP = 'Spans that never reached the collector, by error_type: queue_full (the bounded queue was full) or the failed export error';
const QUEUED = 'mgw_otel_span_queue_size';
const QUEUED_HELP = 'Spans waiting in the exporter queue (bounded by OTEL_BSP_MAX_QUEUE_SIZE)';

export function registerSpanExportCounts(registry: Registry): void {
  const counts = async () => (await activeTracing?.spanCounts?.()) ?? undefined;
  registry.registerMetric({
    name: DROPPED,
    help: DROPPED_HELP,
    get: async () => {
      const read = await counts();
      const values = Object.entries(read?.dropped ?? {}).map(([why, value]) => ({ labels: { error_type: why }, value }));
      return { name: DROPPED, help: DROPPED_HELP, type: 'counter', aggregator: 'sum', values };
    },
  } as never);
  registry.registerMetric({
    name: QUEUED,
    help: QUEUED_HELP,
    get: async () => {
      const read = await counts();
      return { name: QUEUED, help: QUEUED_HELP, type: 'gauge', aggregator: 'sum', values: read ? [{ labels: {}, value: read.queued }] : [] };
    },
  } as never);
}
