/** What the traces and the metrics exporters read alike from the standard variables, and how a stop is bounded. */
import type { OtelEnv } from './types.js';

type Signal = 'TRACES' | 'METRICS';

/** OTEL_EXPORTER_OTLP_<SIGNAL>_ENDPOINT as given, else OTEL_EXPORTER_OTLP_ENDPOINT plus /v1/<signal>. */
export function signalUrlOf(env: OtelEnv, signal: Signal): string {
  const own = env[`OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`];
  if (own) return own;
  return `${(env.OTEL_EXPORTER_OTLP_ENDPOINT ?? '').replace(/\/+$/, '')}/v1/${signal.toLowerCase()}`;
}

/** `http/json` or `http/protobuf` (the default; anything else is warned about and taken as protobuf). */
export function protocolOf(env: OtelEnv, signal: Signal, warn: (message: string) => void): 'http/json' | 'http/protobuf' {
  const protocol = (env[`OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`] ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf').trim();
  if (protocol === 'http/json') return protocol;
  if (protocol !== 'http/protobuf') warn(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported; using http/protobuf`);
  return 'http/protobuf';
}

/** Waits for `stopping` at most `timeoutMs`: a collector that never answers costs a stop no more. */
export async function atMost(timeoutMs: number, stopping: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
    timer.unref();
  });
  try {
    await Promise.race([stopping.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}
