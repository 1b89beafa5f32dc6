/**
 * Client spans for requests that leave the process (upstream polls, webhook deliveries), free when
 * tracing is off: one variable read, and the request goes out without a `traceparent`.
 */
import { activeTracing } from './tracing.js';
import type { Attributes, SpanHandle } from './types.js';

/**
 * The semantic conventions' client attributes of a request. `url.full` has neither a query nor
 * user info: either may hold a key or a token. Its path is kept only where it is ours to know
 * (`path: 'public'`, an upstream's documented route); a customer's receiver may carry its token in
 * the path (Slack's, Discord's), so a webhook's `url.full` is its origin.
 */
export function clientAttributes(method: string, address: string, path: 'public' | 'secret'): Attributes {
  const url = new URL(address);
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return {
    'http.request.method': method,
    'server.address': url.hostname,
    'server.port': port,
    'url.full': `${url.protocol}//${url.host}${path === 'public' ? url.pathname : ''}`,
  };
}

/** An answered request's span: its status, and a failure (the status as `error.type`) from 400 on. */
export function traceAnswer(span: SpanHandle, status: number): void {
  span.set({ 'http.response.status_code': status });
  if (status < 400) return;
  span.set({ 'error.type': String(status) });
  span.fail(String(status));
}

/** A request that got no answer: its span failed, `type` saying how (a short name, never a message). */
export function traceNoAnswer(span: SpanHandle, type: string): void {
  span.set({ 'error.type': type });
  span.fail(type);
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * Sends a request in a client span named by its method when tracing is on: `work` gets the
 * headers to add (its `traceparent`) and the span. Off, `work` runs with no headers and no span.
 */
export function sendTraced<T>(
  method: string,
  url: string,
  path: 'public' | 'secret',
  work: (headers: Readonly<Record<string, string>>, span?: SpanHandle) => Promise<T>,
): Promise<T> {
  const on = activeTracing;
  return on ? on.client(method, clientAttributes(method, url, path), (span, headers) => work(headers, span)) : work(NO_HEADERS);
}
