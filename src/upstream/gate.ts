/**
 * What stands between a source's connector and its upstream, request by request: a hold while the
 * upstream has asked us to wait (429, Binance's 418 ban, any Retry-After) and a circuit breaker
 * (cockatiel) that opens after consecutive failed requests. Either one refuses a request without
 * sending it, so a poll that meets a 429 sends nothing more, and a hung upstream that times out
 * request after request stops being called whether a poll makes one request or fifty.
 */
import { BrokenCircuitError, circuitBreaker, CircuitState, ConsecutiveBreaker, handleWhen } from 'cockatiel';
import type { Logger } from 'pino';
import { UpstreamError } from './errors.js';

export interface UpstreamGateOptions {
  source: string;
  logger?: Logger | undefined;
  /** Consecutive failed requests (timeouts, network errors, 5xx, unreadable bodies) that open the circuit (default 5). */
  breakAfter?: number | undefined;
  /** How long the circuit stays open before one trial request (default 60 s). */
  halfOpenAfterMs?: number | undefined;
  /** The wait after a 429 that names none (default 60 s). */
  rateLimitHoldMs?: number | undefined;
  /** The wait after a 418 (an IP ban) that names none (default 10 min: Binance bans for 2 min to 3 days). */
  banHoldMs?: number | undefined;
  now?: (() => number) | undefined;
}

export type CircuitName = 'closed' | 'open' | 'half-open';

export interface UpstreamGate {
  /** Sends one request through the gate; refused, unsent, with `rate_limited` or `circuit_open`. */
  run<T>(request: () => Promise<T>): Promise<T>;
  /** The upstream asked us to wait (in an answer's body, where only the connector can see it). */
  hold(ms: number | undefined, status?: number): void;
  /** Until when requests are refused for a rate limit (epoch ms), or null. */
  heldUntil(): number | null;
  circuit(): CircuitName;
}

const CIRCUIT_NAMES: Record<CircuitState, CircuitName> = {
  [CircuitState.Closed]: 'closed',
  [CircuitState.Open]: 'open',
  [CircuitState.HalfOpen]: 'half-open',
  [CircuitState.Isolated]: 'open',
};

/** A failure that says the upstream is unwell. A 4xx is about our request, a rate limit is a hold, a schema change is ours to fix. */
const countsAgainstUpstream = (error: unknown): boolean =>
  error instanceof UpstreamError &&
  (error.failure === 'timeout' ||
    error.failure === 'network' ||
    error.failure === 'parse' ||
    (error.failure === 'http' && (error.details.status ?? 500) >= 500));

export function createUpstreamGate(options: UpstreamGateOptions): UpstreamGate {
  const { source } = options;
  const now = options.now ?? Date.now;
  const breakAfter = options.breakAfter ?? 5;
  const log = options.logger?.child({ source });
  const breaker = circuitBreaker(handleWhen(countsAgainstUpstream), {
    halfOpenAfter: options.halfOpenAfterMs ?? 60_000,
    breaker: new ConsecutiveBreaker(breakAfter),
  });
  breaker.onBreak(() => log?.error({ failedRequests: breakAfter }, 'upstream keeps failing; circuit open, requests paused'));
  breaker.onReset(() => log?.info('upstream answered again; circuit closed'));
  let holdUntil = 0;

  function hold(ms: number | undefined, status?: number): void {
    const wait = ms ?? (status === 418 ? (options.banHoldMs ?? 600_000) : (options.rateLimitHoldMs ?? 60_000));
    const until = now() + wait;
    if (until <= holdUntil) return;
    holdUntil = until;
    log?.warn({ status, holdMs: Math.round(wait), until: new Date(until).toISOString() }, 'upstream asked us to wait; no request before then');
  }

  async function run<T>(request: () => Promise<T>): Promise<T> {
    const wait = holdUntil - now();
    if (wait > 0) {
      throw new UpstreamError(source, 'rate_limited', `not called: waiting ${Math.ceil(wait / 1000)} s more as the upstream asked`, { retryAfterMs: wait });
    }
    try {
      return await breaker.execute(request);
    } catch (error) {
      if (error instanceof BrokenCircuitError) {
        throw new UpstreamError(source, 'circuit_open', `not called: circuit open after ${breakAfter} failed requests`);
      }
      if (error instanceof UpstreamError && (error.failure === 'rate_limited' || error.details.retryAfterMs !== undefined)) {
        hold(error.details.retryAfterMs, error.details.status);
      }
      throw error;
    }
  }

  return {
    run,
    hold,
    heldUntil: () => (holdUntil > now() ? holdUntil : null),
    circuit: () => CIRCUIT_NAMES[breaker.state],
  };
}
