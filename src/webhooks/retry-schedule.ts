/**
 * When a failed delivery is tried again, and what an answer means. The schedule is Svix's: after
 * the first attempt, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (8 attempts over 27 h 35 min),
 * each delay spread by +/-10 % so that retries after an outage do not arrive together.
 */
import { HOUR_MS, MINUTE_MS } from '../domain/time.js';
import { parseRetryAfter } from '../net/fetch-failures.js';

export const RETRY_DELAYS_MS = [5_000, 5 * MINUTE_MS, 30 * MINUTE_MS, 2 * HOUR_MS, 5 * HOUR_MS, 10 * HOUR_MS, 10 * HOUR_MS] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
const JITTER = 0.1;
/** A Retry-After further away than this is taken as this: the schedule's whole span is about a day. */
const MAX_RETRY_AFTER_MS = 24 * HOUR_MS;

/** The delay before attempt `attempt + 1`, after attempt `attempt` (1-based) failed; `random` in [0, 1). */
export function retryDelay(attempt: number, random: number): number {
  const base = RETRY_DELAYS_MS[attempt - 1];
  if (base === undefined) throw new Error(`no retry after attempt ${attempt}`);
  return Math.round(base * (1 - JITTER + 2 * JITTER * random));
}

/** What one attempt came to. */
export type AttemptResult = { kind: 'answered'; status: number; retryAfter?: string | undefined; response: string } | { kind: 'failed'; error: string };

export type AttemptDecision =
  | { next: 'delivered' }
  /** 410 Gone: the receiver asks to stop; the endpoint is disabled. */
  | { next: 'disable'; reason: string }
  | { next: 'retry'; at: number; error: string }
  /** The schedule is spent: the delivery fails (and its endpoint is disabled if it took nothing meanwhile). */
  | { next: 'give_up'; error: string };

/** The outcome of attempt number `attempt` (1-based) made at `now`. Redirects are not followed: a 3xx is a failure. */
export function decide(result: AttemptResult, attempt: number, now: number, random: number): AttemptDecision {
  if (result.kind === 'answered' && result.status >= 200 && result.status < 300) return { next: 'delivered' };
  if (result.kind === 'answered' && result.status === 410) return { next: 'disable', reason: 'the receiver answered 410 Gone' };
  const error = result.kind === 'failed' ? result.error : `the receiver answered ${result.status}${result.status < 400 ? ' (redirects are not followed)' : ''}`;
  if (attempt >= MAX_ATTEMPTS) return { next: 'give_up', error };
  const scheduled = retryDelay(attempt, random);
  const asked = result.kind === 'answered' && (result.status === 429 || result.status === 503) ? parseRetryAfter(result.retryAfter ?? null, now) : undefined;
  // Never before the receiver asked; never sooner than the schedule either.
  return { next: 'retry', at: now + Math.max(scheduled, Math.min(asked ?? 0, MAX_RETRY_AFTER_MS)), error };
}
