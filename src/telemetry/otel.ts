/**
 * The OpenTelemetry SDK, loaded only when tracing.ts finds the standard variables asking for it:
 * a tracer provider with a BatchSpanProcessor (a bounded queue: a collector that is down or slow
 * drops spans, never holds a request), the OTLP/HTTP exporter (http/protobuf, the default, or
 * http/json), the sampler and resource of the standard variables, and the W3C trace context.
 * Nothing here is global: the context manager and the propagator are this module's own, so the
 * process's other users of @opentelemetry/api (prom-client) see no change.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Context, defaultTextMapGetter, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  type SpanExporter,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { resourceOf } from './otel-resource.js';
import { countSpans } from './otel-span-counts.js';
import { moreSpans, NO_SPAN, spanRunner, unsampled } from './otel-spans.js';
import { atMost, protocolOf, signalUrlOf } from './otlp-settings.js';
import type { Attributes, OtelEnv, SpanHandle, Tracing } from './types.js';

const SPAN = Symbol('server span');
type Traced = ServerResponse & { [SPAN]?: Span };

/** OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG, as the specification names them; parentbased_always_on by default. */
export function samplerOf(env: OtelEnv, warn: (message: string) => void): Sampler {
  const name = (env.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on').trim().toLowerCase();
  const arg = Number(env.OTEL_TRACES_SAMPLER_ARG ?? '1');
  const ratio = Number.isFinite(arg) && arg >= 0 && arg <= 1 ? arg : 1;
  const samplers: Record<string, () => Sampler> = {
    always_on: () => new AlwaysOnSampler(),
    always_off: () => new AlwaysOffSampler(),
    traceidratio: () => new TraceIdRatioBasedSampler(ratio),
    parentbased_always_on: () => new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    parentbased_always_off: () => new ParentBasedSampler({ root: new AlwaysOffSampler() }),
    parentbased_traceidratio: () => new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) }),
  };
  const make = samplers[name];
  if (make) return make();
  warn(`OTEL_TRACES_SAMPLER=${name} is not supported; using parentbased_always_on`);
  return samplers.parentbased_always_on!();
}

/** Where spans go: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given, else OTEL_EXPORTER_OTLP_ENDPOINT plus /v1/traces. */
export const tracesUrlOf = (env: OtelEnv): string => signalUrlOf(env, 'TRACES');

async function exporterOf(env: OtelEnv, warn: (message: string) => void): Promise<SpanExporter> {
  const url = tracesUrlOf(env);
  if (protocolOf(env, 'TRACES', warn) === 'http/json') return new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter({ url });
  return new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter({ url });
}

const handleOf = (span: Span): SpanHandle => ({
  set: (attributes) => void span.setAttributes(attributes),
  rename: (name) => void span.updateName(name),
  fail: (reason) => void span.setStatus({ code: SpanStatusCode.ERROR, message: reason }),
  end: () => span.end(),
});

export async function createTracing(env: OtelEnv, warn: (message: string) => void): Promise<Tracing> {
  const spanCounts = countSpans();
  const provider = new TracerProvider({
    resource: resourceOf(env),
    sampler: samplerOf(env, warn),
    // A value longer than this is cut (the SDK's default is no limit: a client's text could fill the queue's memory).
    spanLimits: { attributeValueLengthLimit: Number(env.OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT || env.OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT) || 1_024 },
    // The queue is bounded (2 048 spans by default, OTEL_BSP_MAX_QUEUE_SIZE): past it, spans are dropped.
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: await exporterOf(env, warn),
        maxQueueSize: Number(env.OTEL_BSP_MAX_QUEUE_SIZE) || 2_048,
        maxExportBatchSize: Number(env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE) || 512,
        scheduledDelayMillis: Number(env.OTEL_BSP_SCHEDULE_DELAY) || 5_000,
        exportTimeoutMillis: Number(env.OTEL_BSP_EXPORT_TIMEOUT) || 30_000,
        selfObsMeterProvider: spanCounts.meterProvider,
      }),
    ],
  });
  const tracer = provider.getTracer('market-gateway');
  const contexts = new AsyncLocalStorageContextManager().enable();
  const propagator = new W3CTraceContextPropagator();
  const trustIncoming = env.OTEL_TRUST_INCOMING !== '0';
  const clean = (attributes: Attributes) =>
    Object.fromEntries(Object.entries(attributes).filter(([, v]) => v !== undefined)) as Record<string, string | number | boolean>;

  const within = spanRunner(contexts, handleOf);
  return {
    ...moreSpans({ tracer, contexts, propagator, clean, handleOf }),
    serve(req: IncomingMessage, res: ServerResponse, attributes: Attributes, next: () => void): void {
      const parent: Context = trustIncoming ? propagator.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter) : ROOT_CONTEXT;
      const span = tracer.startSpan(req.method ?? 'HTTP', { kind: SpanKind.SERVER, attributes: clean(attributes) }, parent);
      (res as Traced)[SPAN] = span;
      contexts.with(trace.setSpan(parent, span), next);
    },
    endServer(res: ServerResponse, route: string, status: number): void {
      const span = (res as Traced)[SPAN];
      if (!span) return;
      (res as Traced)[SPAN] = undefined;
      span.updateName(`${res.req.method ?? 'HTTP'} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': status });
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: String(status) });
      span.end();
    },
    inSpan<T>(name: string, attributes: Attributes, work: (span: SpanHandle) => Promise<T>): Promise<T> {
      const parent = contexts.active();
      if (unsampled(parent)) return work(NO_SPAN);
      return within(tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes: clean(attributes) }, parent), parent, work);
    },
    record(name: string, attributes: Attributes, startMs: number, endMs: number, failedQuery: boolean): void {
      const parent = contexts.active();
      // A query outside a request (a job): no trace to join yet; within an unsampled one: nothing to record.
      if (!trace.getSpan(parent) || unsampled(parent)) return;
      const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes: clean(attributes), startTime: startMs }, parent);
      if (failedQuery) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end(endMs);
    },
    spanCounts: spanCounts.read,
    ids() {
      const span = trace.getSpan(contexts.active());
      if (!span) return undefined;
      const { traceId, spanId } = span.spanContext();
      return { trace_id: traceId, span_id: spanId };
    },
    async shutdown(timeoutMs: number): Promise<void> {
      try {
        await atMost(timeoutMs, provider.shutdown());
      } finally {
        contexts.disable();
      }
    },
  };
}
