/**
 * Resolves an API key to its account without a database round trip in steady state:
 * known keys are cached (bounded TTL), and a poll of recent changes evicts revoked keys and the
 * keys of accounts whose plans or status changed within D2's 2-second bound, also when another
 * process (the CLI) changed them. Keys of a disabled account, and expired keys, are refused; expiry
 * is checked on every request, cached or not.
 */
import { LRUCache } from 'lru-cache';
import type { Account } from '../domain/account.js';
import type { AccountRepository } from '../store/accounts.js';
import { digestOfHash, hashOfDigest, isWellFormedApiKey, keyDigest } from './api-key.js';

export interface Principal {
  keyId: string;
  account: Account;
  /** The key is exempt from trusted-document enforcement: it may send any GraphQL operation. */
  anyOperation: boolean;
}

/**
 * Why a presented key is refused, for a 401 that says which case it is: keys are random enough
 * (238 bits) that naming a revoked or expired one tells a guesser nothing.
 */
export interface KeyRefusal {
  refused: 'malformed' | 'unknown' | 'revoked' | 'expired' | 'disabled';
  /** When an expired key expired (epoch ms). */
  expiresAt?: number;
}

export const isKeyRefusal = (answer: Principal | KeyRefusal): answer is KeyRefusal => 'refused' in answer;

const MALFORMED: KeyRefusal = Object.freeze({ refused: 'malformed' });
const UNKNOWN: KeyRefusal = Object.freeze({ refused: 'unknown' });
const REVOKED: KeyRefusal = Object.freeze({ refused: 'revoked' });
const DISABLED: KeyRefusal = Object.freeze({ refused: 'disabled' });
const expiredAt = (expiresAt: number): KeyRefusal => ({ refused: 'expired', expiresAt });

/** A refused key, remembered for a moment: until when, and why. */
interface Miss {
  until: number;
  refusal: KeyRefusal;
}

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
 * A cached key: the principal the requests get, with when to re-read it. One object, not an entry
 * holding a principal: about 50 bytes less for each of up to 50 000 keys.
 */
class CacheEntry implements Principal {
  constructor(
    readonly keyId: string,
    readonly account: Account,
    readonly anyOperation: boolean,
    /** Until when the entry is trusted without re-reading the key. */
    readonly freshUntil: number,
    /** When the key itself expires; null: never. */
    readonly keyExpiresAt: number | null,
  ) {}
}

/** A poll re-reads this far back, so clock skew between writers cannot hide a change. */
const REVOCATION_OVERLAP_MS = 10_000;
const NEGATIVE_TTL_MS = 1_000;
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
/**
 * A known key whose re-read takes longer than this is answered from its entry meanwhile (a hung
 * store would make it wait its full second). The request's own statements then have what is left of
 * their bound, counted from its admission (src/deadline/request-deadline.ts), not a whole bound more.
 */
const SLOW_LOOKUP_MS = 250;

export function createAuthenticator(options: AuthenticatorOptions) {
  const ttlMs = options.ttlMs ?? 60_000;
  const clock = options.now ?? Date.now;
  const expired = (keyExpiresAt: number | null) => keyExpiresAt !== null && clock() >= keyExpiresAt;
  // Both caches name a key by its digest in binary form (api-key.ts), half the hex form's bytes.
  const known = new LRUCache<string, CacheEntry>({ max: MAX_ENTRIES });
  /** Key digest -> until when it is known not to work, and why. */
  const unknown = new LRUCache<string, Miss>({ max: MAX_UNKNOWN });
  /** One store lookup per key at a time: concurrent requests with the same uncached key share it. */
  const inFlight = new Map<string, Promise<Principal | KeyRefusal>>();
  let watermark = Date.now();
  let timer: NodeJS.Timeout | undefined;
  /** When a lookup last failed: a known key does not wait on a store that is down. */
  let storeFailedAt = -Infinity;

  async function pollChanges(): Promise<void> {
    const since = watermark - REVOCATION_OVERLAP_MS;
    const changes = await options.accounts.keyChangesSince(since);
    for (const { keyHash, at } of changes) {
      // Dropped from both caches: the next request re-reads the key (a new plan; an enabled account's key works again).
      const digest = digestOfHash(keyHash);
      known.delete(digest);
      unknown.delete(digest);
      if (at > watermark) watermark = at;
    }
    watermark = Math.max(watermark, Date.now() - REVOCATION_OVERLAP_MS);
  }

  /**
   * Reads a key from the store. When the store cannot answer, a key this instance knew (its entry
   * expired, not revoked) stays admitted on that entry until the store answers again; the
   * revocation poll, which resumes with the store, removes revoked keys within its period.
   */
  async function lookup(digest: string, now: number, stale: CacheEntry | undefined): Promise<Principal | KeyRefusal> {
    const keyHash = hashOfDigest(digest);
    let found: Awaited<ReturnType<AuthenticatorOptions['accounts']['findKeyByHash']>>;
    try {
      found = await options.accounts.findKeyByHash(keyHash);
    } catch (error) {
      storeFailedAt = now;
      if (!stale) throw error;
      options.onStale?.(error);
      return stale;
    }
    // The store found the row by its hash: no second comparison (see `check`).
    const refusal = !found
      ? UNKNOWN
      : found.revokedAt !== null
        ? REVOKED
        : found.expiresAt !== null && expired(found.expiresAt)
          ? expiredAt(found.expiresAt)
          : found.accountDisabled
            ? DISABLED
            : undefined;
    if (found && !refusal) {
      const principal = new CacheEntry(found.keyId, found.account, found.anyOperation, now + ttlMs, found.expiresAt);
      known.set(digest, principal);
      unknown.delete(digest);
      return principal;
    }
    known.delete(digest);
    unknown.set(digest, { until: now + NEGATIVE_TTL_MS, refusal: refusal ?? UNKNOWN });
    return refusal ?? UNKNOWN;
  }

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
    if (entry && (entry.freshUntil > now || now - storeFailedAt < STORE_RETRY_MS)) return entry;
    const miss = unknown.get(digest);
    if (miss !== undefined && miss.until > now) return miss.refusal;

    let pending = inFlight.get(digest);
    if (!pending) {
      pending = lookup(digest, now, entry).finally(() => inFlight.delete(digest));
      inFlight.set(digest, pending);
    }
    if (!entry) return pending;
    // A key this instance knows does not wait on a slow store: its entry answers, the re-read goes on.
    let timer: NodeJS.Timeout | undefined;
    const slow = new Promise<Principal>((resolve) => {
      timer = setTimeout(() => resolve(entry), SLOW_LOOKUP_MS);
      timer.unref();
    });
    return Promise.race([pending, slow]).finally(() => clearTimeout(timer));
  }

  return {
    check,

    /** The account of a valid key; null for anything else (`check` says why). */
    async authenticate(rawKey: string, now = Date.now()): Promise<Principal | null> {
      const answer = await check(rawKey, now);
      return isKeyRefusal(answer) ? null : answer;
    },

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

    /**
     * Drops these keys from this instance's caches: the instance that revoked them (the dashboard)
     * refuses them before it answers, whatever the clocks say; other instances within their poll.
     * A walk of the cache, for a person's click, not for a request.
     */
    forgetKeys(keyIds: readonly string[]): void {
      const ids = new Set(keyIds);
      for (const [digest, entry] of known.entries()) if (ids.has(entry.keyId)) known.delete(digest);
    },

    stop(): void {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}

export type Authenticator = ReturnType<typeof createAuthenticator>;
