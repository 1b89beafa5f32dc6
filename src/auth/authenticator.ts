/**
 * Resolves an API key to its account without a database round trip in steady state:
 * known keys are cached (bounded TTL), and a poll of recent revocations evicts revoked
 * keys within D2's 2-second bound, also when another process (the CLI) revoked them.
 */
import { LRUCache } from 'lru-cache';
import type { Account } from '../domain/account.js';
import type { AccountRepository } from '../store/accounts.js';
import { hashApiKey, hashesEqual, isWellFormedApiKey } from './api-key.js';

export interface Principal {
  keyId: string;
  account: Account;
}

interface AuthenticatorOptions {
  accounts: AccountRepository;
  /** How often revocations are polled. */
  pollMs: number;
  /** Upper bound on how long a cached key is trusted without re-reading it. */
  ttlMs?: number;
  onError?: (error: unknown) => void;
}

interface CacheEntry {
  principal: Principal | null;
  keyHash: string;
  expiresAt: number;
}

/** A revocation poll re-reads this far back, so clock skew between writers cannot hide one. */
const REVOCATION_OVERLAP_MS = 10_000;
const NEGATIVE_TTL_MS = 1_000;
/**
 * Keys kept in memory, least recently used dropped first: the keys that poll stay cached, and a
 * scan through every key of a large installation costs lookups, not memory (about 350 bytes each).
 */
const MAX_ENTRIES = 50_000;

export function createAuthenticator(options: AuthenticatorOptions) {
  const ttlMs = options.ttlMs ?? 60_000;
  const cache = new LRUCache<string, CacheEntry>({ max: MAX_ENTRIES });
  let watermark = Date.now();
  let timer: NodeJS.Timeout | undefined;

  async function pollRevocations(): Promise<void> {
    const since = watermark - REVOCATION_OVERLAP_MS;
    const revoked = await options.accounts.revokedSince(since);
    for (const { keyHash, revokedAt } of revoked) {
      cache.delete(keyHash);
      if (revokedAt > watermark) watermark = revokedAt;
    }
    watermark = Math.max(watermark, Date.now() - REVOCATION_OVERLAP_MS);
  }

  function remember(keyHash: string, principal: Principal | null, now: number): void {
    cache.set(keyHash, { principal, keyHash, expiresAt: now + (principal ? ttlMs : NEGATIVE_TTL_MS) });
  }

  return {
    /** The account of a valid, unrevoked key; null for anything else. */
    async authenticate(rawKey: string, now = Date.now()): Promise<Principal | null> {
      if (!isWellFormedApiKey(rawKey)) return null;
      const keyHash = hashApiKey(rawKey);
      const cached = cache.get(keyHash);
      if (cached && cached.expiresAt > now && hashesEqual(cached.keyHash, keyHash)) return cached.principal;

      const found = await options.accounts.findKeyByHash(keyHash);
      const valid = found && found.revokedAt === null && hashesEqual(found.keyHash, keyHash);
      const principal = valid ? { keyId: found.keyId, account: found.account } : null;
      remember(keyHash, principal, now);
      return principal;
    },

    start(): void {
      const tick = () => {
        pollRevocations()
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

export type Authenticator = ReturnType<typeof createAuthenticator>;
