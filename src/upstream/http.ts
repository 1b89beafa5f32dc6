/**
 * The one way connectors talk to upstreams: GET with a timeout, an identifying User-Agent, and
 * every failure turned into an UpstreamError (429/418 with their Retry-After). Bodies are read in
 * full before parsing, so a connection cut mid-body is a failure, not half a batch.
 */
import { isTimeoutError, parseRetryAfter } from '../net/fetch-failures.js';
import { UpstreamError } from './errors.js';

export interface UpstreamHttpOptions {
  source: string;
  baseUrl: string;
  timeoutMs: number;
  /** Aborts the request when the service stops. */
  signal?: AbortSignal | undefined;
}

export const USER_AGENT = 'market-gateway (+https://github.com/market-gateway)';



export interface UpstreamHttp {
  readonly source: string;
  /** The URL for a path (with query) under the connector's base URL. */
  url(path: string): string;
  bytes(path: string): Promise<Uint8Array>;
  text(path: string): Promise<string>;
  /** Parsed JSON, not yet validated: connectors validate with zod. */
  json(path: string): Promise<unknown>;
}

export function createUpstreamHttp(options: UpstreamHttpOptions): UpstreamHttp {
  const { source } = options;
  const base = options.baseUrl.replace(/\/+$/, '');
  const url = (path: string) => `${base}${path.startsWith('/') ? '' : '/'}${path}`;

  async function bytes(path: string): Promise<Uint8Array> {
    const signals = [AbortSignal.timeout(options.timeoutMs), ...(options.signal ? [options.signal] : [])];
    const signal = AbortSignal.any(signals);
    let response: Response;
    try {
      response = await fetch(url(path), { headers: { 'user-agent': USER_AGENT, accept: '*/*' }, signal });
    } catch (error) {
      if (isTimeoutError(error)) throw new UpstreamError(source, 'timeout', `no answer within ${options.timeoutMs} ms`);
      throw new UpstreamError(source, 'network', `request failed (${describeCause(error)})`);
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      const status = response.status;
      // 418 is Binance's "you kept going after a 429": the same, but longer.
      if (status === 429 || status === 418) {
        const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
        throw new UpstreamError(source, 'rate_limited', `rate limited (HTTP ${status})`, { status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
      }
      throw new UpstreamError(source, 'http', `HTTP ${status}`, { status });
    }
    try {
      return new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      if (isTimeoutError(error)) throw new UpstreamError(source, 'timeout', `body not complete within ${options.timeoutMs} ms`);
      throw new UpstreamError(source, 'network', `body cut off (${describeCause(error)})`);
    }
  }

  async function text(path: string): Promise<string> {
    return new TextDecoder('utf-8').decode(await bytes(path));
  }

  async function json(path: string): Promise<unknown> {
    const body = await text(path);
    try {
      return JSON.parse(body);
    } catch {
      // An HTML error page behind a 200, or a truncated body: say which, without echoing it.
      const looksHtml = /^\s*</.test(body);
      throw new UpstreamError(source, 'parse', looksHtml ? 'answered HTML instead of JSON' : `invalid JSON (${body.length} bytes)`);
    }
  }

  return { source, url, bytes, text, json };
}

function describeCause(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return cause.message;
  return (error as Error)?.message ?? 'unknown error';
}
