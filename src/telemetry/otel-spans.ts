/**
 * The spans of work that leaves the process or starts on its own, for otel.ts (loaded only when
 * traces are on): client spans that put their `traceparent` on the outgoing request, root spans of
 * background work linked to what caused them, and the current span's `traceparent` to keep with
 * work queued for later. Only the API is used here: the SDK's objects are handed in.
 */
import {
  type Context,
  type ContextManager,
  defaultTextMapGetter,
  defaultTextMapSetter,
  type Link,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapPropagator,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { Attributes, SpanHandle, Tracing } from './types.js';

interface Parts {
  tracer: Tracer;
  contexts: ContextManager;
  propagator: TextMapPropagator;
  clean(attributes: Attributes): Record<string, string | number | boolean>;
  handleOf(span: Span): SpanHandle;
}

/**
 * Inside a request the sampler left out (most of them at a low ratio): its children would be left
 * out too, so none is started, which is most of what tracing costs such a request.
 */
export const unsampled = (context: Context): boolean => trace.getSpan(context)?.isRecording() === false;

/** What work in an unsampled request writes its attributes to. */
export const NO_SPAN: SpanHandle = { set() {}, rename() {}, fail() {}, end() {} };

/** The reason a span failed: an error's name (its message may hold data). */
const reasonOf = (error: unknown) => (error instanceof Error ? error.name : 'error');

/** Runs `work` in `span`'s context (a child of `parent`); the span ends when `work` settles, failed if it throws. */
export function spanRunner(contexts: ContextManager, handleOf: (span: Span) => SpanHandle) {
  return function within<T>(span: Span, parent: Context, work: (span: SpanHandle, context: Context) => Promise<T>): Promise<T> {
    const failed = (error: unknown): never => {
      span.setStatus({ code: SpanStatusCode.ERROR, message: reasonOf(error) });
      span.end();
      throw error;
    };
    const context = trace.setSpan(parent, span);
    try {
      return contexts
        .with(context, () => work(handleOf(span), context))
        .then((value) => {
          span.end();
          return value;
        }, failed);
    } catch (error) {
      return failed(error);
    }
  };
}

export function moreSpans({ tracer, contexts, propagator, clean, handleOf }: Parts): Pick<Tracing, 'client' | 'command' | 'background' | 'traceparent'> {
  const within = spanRunner(contexts, handleOf);

  /** The W3C headers of a context's span, for a request or a queued job to carry. */
  function injected(context: Context): Record<string, string> {
    const headers: Record<string, string> = {};
    propagator.inject(context, headers, defaultTextMapSetter);
    return headers;
  }

  /** A kept `traceparent` as a link; nothing when it does not parse. */
  function linkOf(traceparent: string | undefined): Link[] {
    if (!traceparent) return [];
    const context = trace.getSpanContext(propagator.extract(ROOT_CONTEXT, { traceparent }, defaultTextMapGetter));
    return context ? [{ context }] : [];
  }

  return {
    client(name, attributes, work) {
      const parent = contexts.active();
      // An unsampled request's traceparent (its flags say so) goes on; no span is started for it.
      if (unsampled(parent)) return work(NO_SPAN, injected(parent));
      const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes: clean(attributes) }, parent);
      return within(span, parent, (handle, context) => {
        return work(handle, injected(context));
      });
    },
    command(name, attributes, work) {
      const parent = contexts.active();
      if (!trace.getSpan(parent) || unsampled(parent)) return work();
      const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes: clean(attributes) }, parent);
      return within(span, parent, (handle) => work(handle));
    },
    background(name, attributes, work, cause) {
      // What is running now (a request that asked for it) caused it too, unless it is the kept cause
      // or was left out by the sampler (a link to nothing recorded).
      const current = unsampled(contexts.active()) ? undefined : trace.getSpanContext(contexts.active());
      const kept = linkOf(cause);
      const same = current && kept.some(({ context }) => context.spanId === current.spanId && context.traceId === current.traceId);
      const links = [...kept, ...(current && !same ? [{ context: current }] : [])];
      const span = tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes: clean(attributes), links, root: true }, ROOT_CONTEXT);
      return within(span, ROOT_CONTEXT, (handle) => work(handle));
    },
    // A link to a span the sampler left out would point at nothing recorded: none is kept.
    traceparent: () => (unsampled(contexts.active()) ? undefined : injected(contexts.active()).traceparent),
  };
}
