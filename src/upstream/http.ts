/**
 * The one way connectors talk to upstreams: GET with a timeout, an identifying User-Agent, and
 * every failure turned into an UpstreamError (429/418 and any Retry-After carried along). Every
 * request passes the source's gate (a rate-limit hold and a circuit breaker, see gate.ts), and a
 * body is read and parsed inside it, so an unreadable answer counts against the upstream too.
 * Bodies are read in full before parsing, so a connection cut mid-body is a failure, not half a batch.
 */
import { isTimeoutError, parseRetryAfter } from '../net/fetch-failures.js';
import { sendTraced, traceAnswer, traceNoAnswer } from '../telemetry/outgoing.js';
import type { SpanHandle } from '../telemetry/tracing.js';
import { UpstreamError } from './errors.js';
import { createUpstreamGate, type UpstreamGate, type UpstreamGateOptions } from './gate.js';

export interface UpstreamHttpOptions {
  source: string;
  baseUrl: string;
  timeoutMs: number;
  /** Aborts the request when the service stops. */
  signal?: AbortSignal | undefined;
  /** The circuit and rate-limit settings of the source's gate (defaults in gate.ts). */
  gate?: Omit<UpstreamGateOptions, 'source'> | undefined;
}

const USER_AGENT = 'market-gateway (+https://github.com/market-gateway)';

export interface UpstreamHttp {
  readonly source: string;
  /** The source's hold and circuit: the poller reads when to poll next and what /ready shows. */
  readonly gate: Pick<UpstreamGate, 'heldUntil' | 'circuit'>;
  /** The URL for a path (with query) under the connector's base URL. */
  url(path: string): string;
  bytes(path: string): Promise<Uint8Array>;
  text(path: string): Promise<string>;
  /** Parsed JSON, not yet validated: connectors validate with zod. */
  json(path: string): Promise<unknown>;
  /**
   * A rate limit that only the body says (Kraken's `EAPI:Rate limit exceeded` behind a 200): holds
   * the source's requests like a 429 would, and returns the error for the connector to throw.
   */
  rateLimited(message: string, retryAfterMs?: number): UpstreamError;
}

export function createUpstreamHttp(options: UpstreamHttpOptions): UpstreamHttp {
  const { source } = options;
  const base = options.baseUrl.replace(/\/+$/, '');
  const url = (path: string) => `${base}${path.startsWith('/') ? '' : '/'}${path}`;
  const gate = createUpstreamGate({ source, ...options.gate });
  // Named in every failure of a request: "ENOTFOUND" alone does not say which name did not resolve.
  const host = new URL(base).host;

  /** One request, in a client span carrying its `traceparent` when traced. */
  function fetchBytes(path: string): Promise<Uint8Array> {
    return sendTraced('GET', url(path), 'public', (traceHeaders, span) =>
      span ? fetchOnce(path, traceHeaders, span).catch((error: unknown) => failedSpan(span, error)) : fetchOnce(path, traceHeaders),
    );
  }

  async function fetchOnce(path: string, traceHeaders: Readonly<Record<string, string>>, span?: SpanHandle): Promise<Uint8Array> {
    const signals = [AbortSignal.timeout(options.timeoutMs), ...(options.signal ? [options.signal] : [])];
    const signal = AbortSignal.any(signals);
    let response: Response;
    try {
      response = await fetch(url(path), { headers: { 'user-agent': USER_AGENT, accept: '*/*', ...traceHeaders }, signal });
    } catch (error) {
      if (isTimeoutError(error)) throw new UpstreamError(source, 'timeout', `no answer from ${host} within ${options.timeoutMs} ms`);
      throw new UpstreamError(source, 'network', `request to ${host} failed (${describeCause(error)})`);
    }
    if (span) traceAnswer(span, response.status);
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      const status = response.status;
      // A Retry-After on any refusal (a 503 during maintenance too) is a request to wait: the gate holds.
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
      const details = { status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
      // 418 is Binance's "you kept going after a 429": the same, but longer.
      if (status === 429 || status === 418) throw new UpstreamError(source, 'rate_limited', `rate limited (HTTP ${status})`, details);
      throw new UpstreamError(source, 'http', `HTTP ${status}`, details);
    }
    try {
      return new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      if (isTimeoutError(error)) throw new UpstreamError(source, 'timeout', `body from ${host} not complete within ${options.timeoutMs} ms`);
      throw new UpstreamError(source, 'network', `body from ${host} cut off (${describeCause(error)})`);
    }
  }

  const decode = (bytes: Uint8Array) => new TextDecoder('utf-8').decode(bytes);

  function parseJson(body: string): unknown {
    try {
      return JSON.parse(body);
    } catch {
      // An HTML error page behind a 200, or a truncated body: say which, without echoing it.
      const looksHtml = /^\s*</.test(body);
      throw new UpstreamError(source, 'parse', looksHtml ? 'answered HTML instead of JSON' : `invalid JSON (${body.length} bytes)`);
    }
  }

  return {
    source,
    gate,
    url,
    bytes: (path) => gate.run(() => fetchBytes(path)),
    text: (path) => gate.run(async () => decode(await fetchBytes(path))),
    json: (path) => gate.run(async () => parseJson(decode(await fetchBytes(path)))),
    rateLimited(message, retryAfterMs) {
      gate.hold(retryAfterMs);
      return new UpstreamError(source, 'rate_limited', message, retryAfterMs === undefined ? {} : { retryAfterMs });
    },
  };
}

/** A failed request's span says how it failed (an answered one's status says it already). */
function failedSpan(span: SpanHandle, error: unknown): never {
  if (error instanceof UpstreamError && error.details.status === undefined) traceNoAnswer(span, error.failure);
  throw error;
}

function describeCause(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return cause.message;
  return (error as Error)?.message ?? 'unknown error';
}
