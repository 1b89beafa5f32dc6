/** The shapes tracing.ts (always loaded) and otel.ts (loaded only when traces are on) share. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Attribute values as OpenTelemetry takes them. */
export type Attributes = Record<string, string | number | boolean | undefined>;

/** A span in progress, as the request path sees it. */
export interface SpanHandle {
  set(attributes: Attributes): void;
  /** Renames the span, once what it is about is known (a subscription's operation). */
  rename(name: string): void;
  /** Marks the span failed (an error status), without its message when that could hold data. */
  fail(reason: string): void;
  end(): void;
}

/** What the loaded SDK provides (otel.ts). */
export interface Tracing {
  /**
   * Starts the server span of a request (continuing an incoming `traceparent` when trusted) and
   * runs `next` in its context; the span is ended by `endServer` once the answer is finished.
   */
  serve(req: IncomingMessage, res: ServerResponse, attributes: Attributes, next: () => void): void;
  endServer(res: ServerResponse, route: string, status: number): void;
  /** Runs `work` in a child span of the current context; the span ends when `work` settles. */
  inSpan<T>(name: string, attributes: Attributes, work: (span: SpanHandle) => Promise<T>): Promise<T>;
  /** A finished child span of the current context, recorded after the fact (a store query's log event). */
  record(name: string, attributes: Attributes, startMs: number, endMs: number, failed: boolean): void;
  /**
   * Runs `work` in a client span (kind CLIENT) of the current context: a request to an upstream or
   * a webhook receiver. `headers` holds the span's `traceparent`, for the request to carry.
   */
  client<T>(name: string, attributes: Attributes, work: (span: SpanHandle, headers: Readonly<Record<string, string>>) => Promise<T>): Promise<T>;
  /**
   * Runs `work` in a client span of the current span (a command to Redis), or just runs it outside
   * any span (a command on its own, at start-up or a reconnect, has no trace to join) or within
   * one the sampler left out.
   */
  command<T>(name: string, attributes: Attributes, work: (span?: SpanHandle) => Promise<T>): Promise<T>;
  /**
   * Runs `work` as the root span of a trace of its own (background work: a tick, a delivery, the
   * brief), linked to the span running now, if any, and to `cause`, a kept `traceparent`.
   */
  background<T>(name: string, attributes: Attributes, work: (span: SpanHandle) => Promise<T>, cause?: string): Promise<T>;
  /** The current span's W3C `traceparent`, to keep with work queued for later; undefined outside a span or in an unsampled one. */
  traceparent(): string | undefined;
  /** The ids of the current span, for log lines. */
  ids(): { trace_id: string; span_id: string } | undefined;
  /** What became of the spans that did not reach the collector, and how many wait in the queue (for /metrics). */
  spanCounts?(): Promise<SpanCounts>;
  /** Flushes what is queued and stops, within `timeoutMs`. */
  shutdown(timeoutMs: number): Promise<void>;
}

/** Spans lost, by why (`queue_full`, or the failed export's error name), and spans queued now. */
export interface SpanCounts {
  dropped: Record<string, number>;
  queued: number;
}

/** OTEL_* variables, as the operator set them (config.ts keeps them apart from the service's own). */
export type OtelEnv = Readonly<Record<string, string | undefined>>;
