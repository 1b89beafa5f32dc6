/**
 * The authenticator's reads of a key from the store: one at a time per key, the answer kept in
 * the caches, and a key this instance knew admitted on its entry while the store cannot answer.
 */
import type { LRUCache } from 'lru-cache';
import type { AccountRepository } from '../store/accounts.js';
import { hashOfDigest } from './api-key.js';
import { CacheEntry, DISABLED, expiredAt, type KeyRefusal, type Miss, type Principal, REVOKED, UNKNOWN } from './key-answers.js';

const NEGATIVE_TTL_MS = 1_000;
/**
 * A known key whose re-read takes longer than this is answered from its entry meanwhile (a hung
 * store would make it wait its full second). The request's own statements then have what is left of
 * their bound, counted from its admission (src/deadline/request-deadline.ts), not a whole bound more.
 */
const SLOW_LOOKUP_MS = 250;

/** Both caches name a key by its digest in binary form (api-key.ts). */
export interface KeyCaches {
  known: LRUCache<string, CacheEntry>;
  /** Key digest -> until when it is known not to work, and why. */
  unknown: LRUCache<string, Miss>;
}

interface KeyLookupOptions {
  accounts: AccountRepository;
  /** Told when a key the instance knows is admitted on its cached entry because the store cannot answer. */
  onStale?: (error: unknown) => void;
}

type FoundKey = Awaited<ReturnType<AccountRepository['findKeyByHash']>>;

/** Why a key the store returned is refused (none found, revoked, expired, its account disabled); undefined when it works. */
function refusalOf(found: FoundKey, expired: (keyExpiresAt: number | null) => boolean): KeyRefusal | undefined {
  return !found
    ? UNKNOWN
    : found.revokedAt !== null
      ? REVOKED
      : found.expiresAt !== null && expired(found.expiresAt)
        ? expiredAt(found.expiresAt)
        : found.accountDisabled
          ? DISABLED
          : undefined;
}

export function createKeyLookup(options: KeyLookupOptions, caches: KeyCaches, ttlMs: number, expired: (keyExpiresAt: number | null) => boolean) {
  const { known, unknown } = caches;
  /** One store lookup per key at a time: concurrent requests with the same uncached key share it. */
  const inFlight = new Map<string, Promise<Principal | KeyRefusal>>();
  /** When a lookup last failed: a known key does not wait on a store that is down. */
  let storeFailedAt = -Infinity;

  /**
   * Reads a key from the store. When the store cannot answer, a key this instance knew (its entry
   * expired, not revoked) stays admitted on that entry until the store answers again; the
   * revocation poll, which resumes with the store, removes revoked keys within its period.
   */
  async function lookup(digest: string, now: number, stale: CacheEntry | undefined): Promise<Principal | KeyRefusal> {
    const keyHash = hashOfDigest(digest);
    let found: FoundKey;
    try {
      found = await options.accounts.findKeyByHash(keyHash);
    } catch (error) {
      storeFailedAt = now;
      if (!stale) throw error;
      options.onStale?.(error);
      return stale;
    }
    // The store found the row by its hash: no second comparison (see `check`, authenticator.ts).
    const refusal = refusalOf(found, expired);
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

  return {
    /** Milliseconds since a lookup last failed (Infinity before any). */
    sinceStoreFailed: (now: number) => now - storeFailedAt,

    /** The key's answer from the store, shared with a lookup of the same key under way. */
    lookup(digest: string, now: number, stale: CacheEntry | undefined): Promise<Principal | KeyRefusal> {
      let pending = inFlight.get(digest);
      if (!pending) {
        pending = lookup(digest, now, stale).finally(() => inFlight.delete(digest));
        inFlight.set(digest, pending);
      }
      return pending;
    },
  };
}

/** A key this instance knows does not wait on a slow store: its entry answers, the re-read goes on. */
export function entryIfSlow(pending: Promise<Principal | KeyRefusal>, entry: CacheEntry): Promise<Principal | KeyRefusal> {
  let timer: NodeJS.Timeout | undefined;
  const slow = new Promise<Principal>((resolve) => {
    timer = setTimeout(() => resolve(entry), SLOW_LOOKUP_MS);
    timer.unref();
  });
  return Promise.race([pending, slow]).finally(() => clearTimeout(timer));
}
