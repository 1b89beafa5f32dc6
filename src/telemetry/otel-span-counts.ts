/**
 * The batch span processor's own counts (the SDK's self-observability metrics,
 * `otel.sdk.processor.span.processed` by `error.type`, and `otel.sdk.processor.span.queue.size`),
 * read when /metrics is scraped: spans dropped because the queue was full, spans lost with a failed
 * export, spans waiting. Loaded with otel.ts only. The processor's option for it is marked
 * experimental by the SDK; the never-in-the-way test reads these counts, so a change shows there.
 */
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import type { SpanCounts } from './types.js';

/** A reader that is only ever asked (collect), never pushes. */
class OnDemandReader extends MetricReader {
  protected onShutdown = async () => undefined;
  protected onForceFlush = async () => undefined;
}

export function countSpans(): { meterProvider: MeterProvider; read: () => Promise<SpanCounts> } {
  const reader = new OnDemandReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    meterProvider,
    async read() {
      const counts: SpanCounts = { dropped: {}, queued: 0 };
      const { resourceMetrics } = await reader.collect();
      for (const metric of resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics)) {
        for (const point of metric.dataPoints) {
          const value = Number(point.value);
          const why = point.attributes['error.type'];
          if (metric.descriptor.name === 'otel.sdk.processor.span.processed' && why !== undefined)
            counts.dropped[String(why)] = (counts.dropped[String(why)] ?? 0) + value;
          if (metric.descriptor.name === 'otel.sdk.processor.span.queue.size') counts.queued += value;
        }
      }
      return counts;
    },
  };
}
