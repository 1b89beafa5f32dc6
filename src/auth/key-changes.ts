/**
 * The poll of recent key changes (revocations, plans, disabled accounts): every key it names is
 * dropped from the authenticator's caches, so the next request re-reads it, also when another
 * process (the CLI) made the change.
 */
import type { AccountRepository } from '../store/accounts.js';
import { digestOfHash } from './api-key.js';

/** A poll re-reads this far back, so clock skew between writers cannot hide a change. */
const REVOCATION_OVERLAP_MS = 10_000;

interface KeyChangePollOptions {
  accounts: AccountRepository;
  /** How often changes are polled. */
  pollMs: number;
  onError?: (error: unknown) => void;
}

/** The poll's schedule; `forget` drops one key, named by its digest in binary form, from the caches. */
export function createKeyChangePoll(options: KeyChangePollOptions, forget: (digest: string) => void) {
  let watermark = Date.now();
  let timer: NodeJS.Timeout | undefined;

  async function pollChanges(): Promise<void> {
    const since = watermark - REVOCATION_OVERLAP_MS;
    const changes = await options.accounts.keyChangesSince(since);
    for (const { keyHash, at } of changes) {
      // Dropped from both caches: the next request re-reads the key (a new plan; an enabled account's key works again).
      forget(digestOfHash(keyHash));
      if (at > watermark) watermark = at;
    }
    watermark = Math.max(watermark, Date.now() - REVOCATION_OVERLAP_MS);
  }

  return {
    start(): void {
      const tick = () => {
        pollChanges()
          .catch((error) => options.onError?.(error))
          .finally(() => {
            if (timer) timer = setTimeout(tick, options.pollMs).unref();
          });
      };
      timer = setTimeout(tick, options.pollMs).unref();
    },

    stop(): void {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
