/**
 * Metrics over OTLP, off by default: `startMetricsExport` loads the SDK's metrics reader and OTLP
 * exporter (otel-metrics.ts) by a dynamic import, and only when OTEL_EXPORTER_OTLP_ENDPOINT (or its
 * metrics variant) is set, OTEL_SDK_DISABLED is not true and OTEL_METRICS_EXPORTER is not `none`.
 * The points themselves are recorded whether or not it runs (/metrics serves them).
 */
import type { MetricSource } from './metric-points.js';
import type { OtelEnv } from './types.js';

export function metricsExportRequested(env: OtelEnv): boolean {
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return false;
  if ((env.OTEL_METRICS_EXPORTER ?? 'otlp').trim().toLowerCase() === 'none') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT);
}

/** Starts the periodic export when `env` asks for it; returns how to stop it (undefined when off: nothing was loaded). */
export async function startMetricsExport(
  env: OtelEnv,
  source: MetricSource,
  warn: (message: string) => void,
): Promise<{ shutdown(timeoutMs: number): Promise<void> } | undefined> {
  if (!metricsExportRequested(env)) return undefined;
  const { createMetricsExport } = await import('./otel-metrics.js');
  return createMetricsExport(env, source, warn);
}
