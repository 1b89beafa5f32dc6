/**
 * Failed sign-ins are limited per email (10 in 15 minutes) and per client address (100 in 15
 * minutes), with rate-limiter-flexible: in Redis when the instances share one, else in memory.
 * Once a limit is reached every attempt is refused until the window passes, the right password too,
 * so guessing gains nothing by waiting for a lucky try.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';

const WINDOW_S = 15 * 60;
export const SIGN_IN_LIMITS = { perEmail: 10, perAddress: 100, windowSeconds: WINDOW_S } as const;

export interface SignInThrottle {
  /** Seconds to wait before trying again, or 0 when an attempt may be made. */
  waitSeconds(email: string, address: string): Promise<number>;
  /** Counts a failed attempt against both limits. */
  failed(email: string, address: string): Promise<void>;
  /** A successful sign-in forgets the email's failures (not the address's). */
  succeeded(email: string): Promise<void>;
}

export function createSignInThrottle(redis?: Redis): SignInThrottle {
  const limiter = (keyPrefix: string, points: number): RateLimiterAbstract =>
    redis
      ? new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration: WINDOW_S })
      : new RateLimiterMemory({ keyPrefix, points, duration: WINDOW_S });
  const byEmail = limiter('mgw:signin:email', SIGN_IN_LIMITS.perEmail);
  const byAddress = limiter('mgw:signin:addr', SIGN_IN_LIMITS.perAddress);

  const wait = async (l: RateLimiterAbstract, points: number, key: string) => {
    const state = await l.get(key);
    return state && state.consumedPoints >= points ? Math.max(1, Math.ceil(state.msBeforeNext / 1000)) : 0;
  };
  // A refused consume (the limit already reached) rejects with its state: that is the point, not an error.
  const spend = (l: RateLimiterAbstract, key: string) =>
    l.consume(key).then(
      () => undefined,
      (rejection: unknown) => {
        if (rejection instanceof Error) throw rejection;
      },
    );

  return {
    async waitSeconds(email, address) {
      const [e, a] = await Promise.all([wait(byEmail, SIGN_IN_LIMITS.perEmail, email), wait(byAddress, SIGN_IN_LIMITS.perAddress, address)]);
      return Math.max(e, a);
    },
    async failed(email, address) {
      await Promise.all([spend(byEmail, email), spend(byAddress, address)]);
    },
    async succeeded(email) {
      await byEmail.delete(email);
    },
  };
}
