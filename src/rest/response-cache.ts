/**
 * Answers whose inputs have not changed are not computed again: a route that declares how its data
 * is versioned has its serialized 200 body kept per (route, parameters, data version). Identical
 * concurrent requests share one computation. Each body carries a strong ETag, so a client that
 * already holds it gets a 304 without anything being executed or sent.
 */
import { createHash } from 'node:crypto';
import type { Principal } from '../auth/authenticator.js';
import type { GraphQLServices } from '../graphql/services.js';

export interface RouteCachePolicy {
  /**
   * A value that changes whenever the answer may: read-model versions, and a clock bucket where time
   * matters. An answer that depends on the caller's account names the account in it.
   */
  version(services: GraphQLServices, now: number, principal: Principal | null): string | Promise<string>;
  /** `Cache-Control: private, max-age=…`: how long a client may reuse it (the data's refresh rate). */
  maxAgeSeconds: number;
}

interface CachedBody {
  bytes: Buffer;
  etag: string;
}

export interface ResponseCacheLimits {
  /** Bodies kept (default 2 000). */
  maxEntries?: number;
  /** Bytes of bodies kept (default 16 MB; the two REST facades and /graphql have one each, 48 MB at most in all, docs/performance.md). */
  maxBytes?: number;
}

export function createResponseCache(limits: ResponseCacheLimits = {}) {
  const maxEntries = limits.maxEntries ?? 2_000;
  const maxBytes = limits.maxBytes ?? 16 * 1024 * 1024;
  const entries = new Map<string, CachedBody>();
  const inFlight = new Map<string, Promise<CachedBody>>();
  let bytes = 0;

  function remember(key: string, body: CachedBody): void {
    if (body.bytes.length > maxBytes / 4) return; // larger than a quarter of the budget: served, not kept
    // Old versions are never asked for again: drop the oldest entries first (Map keeps insertion order).
    if (entries.size >= maxEntries || bytes + body.bytes.length > maxBytes) {
      for (const [old, oldBody] of entries) {
        entries.delete(old);
        bytes -= oldBody.bytes.length;
        if (entries.size < maxEntries * 0.9 && bytes + body.bytes.length <= maxBytes * 0.9) break;
      }
    }
    entries.set(key, body);
    bytes += body.bytes.length;
  }

  return {
    /** The cached body for `key`, or the one `compute` produces (once, however many ask at the same time). */
    async get(key: string, compute: () => Promise<unknown>): Promise<CachedBody> {
      const hit = entries.get(key);
      if (hit) return hit;
      let pending = inFlight.get(key);
      if (!pending) {
        pending = compute()
          .then((value) => {
            const bytes = Buffer.from(JSON.stringify(value));
            const body = { bytes, etag: etagOf(bytes) };
            remember(key, body);
            return body;
          })
          .finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      return pending;
    },
    size: () => entries.size,
  };
}

/** Parameters in a stable order, so `?a=1&b=2` and `?b=2&a=1` share an entry. */
export const cacheKeyOf = (path: string, params: Record<string, unknown>, version: string): string =>
  `${path}|${JSON.stringify(
    Object.keys(params)
      .sort()
      .map((k) => [k, params[k]]),
  )}|${version}`;

/** A strong ETag for a body: its SHA-1, as every cached or revalidated answer carries it. */
export const etagOf = (bytes: Buffer): string => `"${createHash('sha1').update(bytes).digest('base64url')}"`;

/** If-None-Match holds the body's ETag (or `*`). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}
