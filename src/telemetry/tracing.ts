/**
 * Tracing, off by default and free when off. This module is what the rest of the code imports: it
 * holds no OpenTelemetry code, only the hooks the request path calls (each one variable read and
 * nothing more while tracing is off). `startTracing` loads the SDK and its OTLP exporter
 * (`otel.ts`) by a dynamic import, and only when OTEL_EXPORTER_OTLP_ENDPOINT (or its traces
 * variant) is set and OTEL_SDK_DISABLED is not true; an instance without them never holds it.
 * docs/observability.md says what each span and attribute means.
 */
import type { Attributes, OtelEnv, SpanHandle, Tracing } from './types.js';

export type { Attributes, OtelEnv, SpanHandle, Tracing } from './types.js';

/**
 * The tracing in force, or undefined (the usual case: nothing to do). A live binding, read where it
 * is needed: a request with tracing off reads one variable and enters no code of this module.
 */
export let activeTracing: Tracing | undefined;

/** True when the standard variables ask for traces: an OTLP endpoint, and the SDK not disabled. */
export function tracingRequested(env: OtelEnv): boolean {
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return false;
  if ((env.OTEL_TRACES_EXPORTER ?? 'otlp').trim().toLowerCase() === 'none') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/**
 * Loads the SDK and makes it the tracing in force when `env` asks for it; returns how to stop it
 * (undefined when off: nothing was loaded). One tracing per process: a second start replaces it.
 */
export async function startTracing(env: OtelEnv, warn: (message: string) => void): Promise<Tracing | undefined> {
  if (!tracingRequested(env)) return undefined;
  const { createTracing } = await import('./otel.js');
  const started = await createTracing(env, warn);
  activeTracing = started;
  return {
    ...started,
    shutdown: async (timeoutMs) => {
      if (activeTracing === started) activeTracing = undefined;
      await started.shutdown(timeoutMs);
    },
  };
}

/** Runs `work` in a span when tracing is on; just runs it otherwise. */
export function inSpan<T>(name: string, attributes: () => Attributes, work: (span?: SpanHandle) => Promise<T>): Promise<T> {
  const on = activeTracing;
  return on ? on.inSpan(name, attributes(), work) : work();
}

/** pino's mixin: the current trace and span ids on each log line of a traced request. */
export function traceIdsMixin(): object {
  return activeTracing?.ids() ?? {};
}
