/**
 * Background work (ingest ticks, polls, detectors, the brief, webhook deliveries) as root spans of
 * their own traces, free when tracing is off: one variable read, then the work runs as it is.
 */
import { activeTracing } from './tracing.js';
import type { Attributes, SpanHandle } from './types.js';

/**
 * Runs `work` as the root of a trace of its own when tracing is on, linked to the span running now
 * (a request that asked for it) and to `cause` (a `traceparent` kept with queued work).
 */
export function inBackground<T>(name: string, attributes: () => Attributes, work: (span?: SpanHandle) => Promise<T>, cause?: string | null): Promise<T> {
  const on = activeTracing;
  return on ? on.background(name, attributes(), work, cause ?? undefined) : work();
}

/** For work whose span's name says it all. */
export const NO_ATTRIBUTES = (): Attributes => ({});

/** The current span's `traceparent`, to keep with work queued for later; undefined when off or outside a span. */
export const currentTraceparent = (): string | undefined => activeTracing?.traceparent();
