/**
 * Resolves an API key to its account without a database round trip in steady state:
 * known keys are cached (bounded TTL), and a poll of recent changes evicts revoked keys and the
 * keys of accounts whose plans or status changed within D2's 2-second bound, also when another
 * process (the CLI) changed them. Keys of a disabled account, and expired keys, are refused; expiry
 * is checked on every request, cached or not.
 */
import { LRUCache } from 'lru-cache';
import type { AccountRepository } from '../store/accounts.js';
import { isWellFormedApiKey, keyDigest } from './api-key.js';
import { type CacheEntry, expiredAt, type KeyRefusal, MALFORMED, type Miss, type Principal } from './key-answers.js';
import { createKeyChangePoll } from './key-changes.js';
import { createKeyLookup, entryIfSlow } from './key-lookup.js';

export type { KeyRefusal, Principal } from './key-answers.js';

/** Whether `check` refused the key (and why), or answered with its principal. */
export const isKeyRefusal = (answer: Principal | KeyRefusal): answer is KeyRefusal => 'refused' in answer;

interface AuthenticatorOptions {
  accounts: AccountRepository;
  /** How often changes (revocations, plans, disabled accounts) are polled. */
  pollMs: number;
  /**
   * The clock keys expire by: the service's (tests inject theirs). The cache's own timing, given to
   * `authenticate`, stays on the wall clock.
   */
  now?: () => number;
  /** Upper bound on how long a cached key is trusted without re-reading it. */
  ttlMs?: number;
  onError?: (error: unknown) => void;
  /** Told when a key the instance knows is admitted on its cached entry because the store cannot answer. */
  onStale?: (error: unknown) => void;
}

/**
 * Keys kept in memory, least recently used dropped first: the keys that poll stay cached, and a
 * scan through every key of a large installation costs lookups, not memory (about 330 bytes each).
 */
const MAX_ENTRIES = 50_000;
/**
 * Keys found unknown, remembered for a second in a cache of their own: a flood of random keys
 * turns over this cache only, never the one of the keys that work.
 */
const MAX_UNKNOWN = 10_000;
/** After a failed lookup, known keys are admitted on their entries for this long without asking the store again (each try may wait a second). */
const STORE_RETRY_MS = 2_000;

export function createAuthenticator(options: AuthenticatorOptions) {
  const ttlMs = options.ttlMs ?? 60_000;
  const clock = options.now ?? Date.now;
  const expired = (keyExpiresAt: number | null) => keyExpiresAt !== null && clock() >= keyExpiresAt;
  // Both caches name a key by its digest in binary form (api-key.ts), half the hex form's bytes.
  const known = new LRUCache<string, CacheEntry>({ max: MAX_ENTRIES });
  /** Key digest -> until when it is known not to work, and why. */
  const unknown = new LRUCache<string, Miss>({ max: MAX_UNKNOWN });
  const store = createKeyLookup(options, { known, unknown }, ttlMs, expired);
  const changes = createKeyChangePoll(options, (digest) => {
    known.delete(digest);
    unknown.delete(digest);
  });

  /** The account of a valid key (not revoked, not expired, its account not disabled), or why it is refused. */
  async function check(rawKey: string, now = Date.now()): Promise<Principal | KeyRefusal> {
    if (!isWellFormedApiKey(rawKey)) return MALFORMED;
    const digest = keyDigest(rawKey);
    // Found by the whole digest: equal to the presented key's by construction. Comparing them again
    // in constant time would guard nothing (the caller cannot choose a digest), at 0.3 µs a request.
    const entry = known.get(digest);
    // Its expiry is known: no need to ask the store, nor to keep the entry.
    if (entry && expired(entry.keyExpiresAt)) {
      known.delete(digest);
      return expiredAt(entry.keyExpiresAt as number);
    }
    // Fresh, or the store failed a moment ago: the entry answers without asking the store.
    if (entry && (entry.freshUntil > now || store.sinceStoreFailed(now) < STORE_RETRY_MS)) return entry;
    const miss = unknown.get(digest);
    if (miss !== undefined && miss.until > now) return miss.refusal;

    const pending = store.lookup(digest, now, entry);
    if (!entry) return pending;
    return entryIfSlow(pending, entry);
  }

  return {
    check,

    /** The account of a valid key; null for anything else (`check` says why). */
    async authenticate(rawKey: string, now = Date.now()): Promise<Principal | null> {
      const answer = await check(rawKey, now);
      return isKeyRefusal(answer) ? null : answer;
    },

    start: changes.start,

    /**
     * Drops these keys from this instance's caches: the instance that revoked them (the dashboard)
     * refuses them before it answers, whatever the clocks say; other instances within their poll.
     * A walk of the cache, for a person's click, not for a request.
     */
    forgetKeys(keyIds: readonly string[]): void {
      const ids = new Set(keyIds);
      for (const [digest, entry] of known.entries()) if (ids.has(entry.keyId)) known.delete(digest);
    },

    stop: changes.stop,
  };
}

export type Authenticator = ReturnType<typeof createAuthenticator>;
