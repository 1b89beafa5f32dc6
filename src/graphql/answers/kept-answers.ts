/**
 * Answers whose inputs have not changed are not computed again: a route that declares how its data
 * is versioned has its serialized 200 body kept per (route, parameters) and data version. Only the
 * newest version of each is kept: versions only move forward, so an older answer is never asked for
 * again, and holding it would fill the budget with the dead. Identical concurrent requests share one
 * computation. Each body carries a strong ETag, so a client that already holds it gets a 304
 * without anything being executed or sent.
 */
import { createHash } from 'node:crypto';
import type { Principal } from '../../auth/authenticator.js';
import type { AnswerVersioning } from './versions.js';
import type { GraphQLServices } from '../services.js';
import { awaitWithinStoreDeadline, outsideStoreDeadline } from '../../deadline/request-deadline.js';

export interface RouteCachePolicy extends AnswerVersioning {
  /** `Cache-Control: private, max-age=…`: how long a client may reuse it (the data's refresh rate). */
  maxAgeSeconds: number;
}

interface CachedBody {
  bytes: Buffer;
  etag: string;
}

interface Entry {
  version: string;
  /** When its computation started: a slower, older computation never replaces a newer answer. */
  started: number;
  body: CachedBody;
}

export interface ResponseCacheLimits {
  /** Entries kept (default 2 000). */
  maxEntries?: number;
  /** Bytes of bodies kept (default 16 MB; the two REST facades and /graphql have one each, 48 MB at most in all, docs/performance.md). */
  maxBytes?: number;
}

export function createResponseCache(limits: ResponseCacheLimits = {}) {
  const maxEntries = limits.maxEntries ?? 2_000;
  const maxBytes = limits.maxBytes ?? 16 * 1024 * 1024;
  /** Slot (what the answer is of) -> its newest answer. Map order: least recently stored first. */
  const entries = new Map<string, Entry>();
  const inFlight = new Map<string, Promise<CachedBody>>();
  let bytes = 0;
  let computations = 0;

  function drop(slot: string, entry: Entry): void {
    entries.delete(slot);
    bytes -= entry.body.bytes.length;
  }

  function remember(slot: string, entry: Entry): void {
    const held = entries.get(slot);
    if (held) {
      if (held.started > entry.started) return; // a newer answer got here first
      drop(slot, held);
    }
    if (entry.body.bytes.length > maxBytes / 4) return; // larger than a quarter of the budget: served, not kept
    if (entries.size >= maxEntries || bytes + entry.body.bytes.length > maxBytes) {
      for (const [old, oldEntry] of entries) {
        drop(old, oldEntry);
        if (entries.size < maxEntries * 0.9 && bytes + entry.body.bytes.length <= maxBytes * 0.9) break;
      }
    }
    entries.set(slot, entry);
    bytes += entry.body.bytes.length;
  }

  /**
   * The body of `slot` at `version`: the kept one, or the one `compute` produces (once, however
   * many ask at the same time), which then replaces the slot's older version.
   */
  async function get(slot: string, version: string, compute: () => Promise<unknown>): Promise<CachedBody> {
    const hit = entries.get(slot);
    if (hit?.version === version) return hit.body;
    const key = `${slot}\n${version}`;
    let pending = inFlight.get(key);
    if (!pending) {
      const started = ++computations;
      // Shared by every request that asks meanwhile: bound by none's deadline, each waits within its own.
      pending = outsideStoreDeadline(() =>
        compute()
          .then((value) => {
            const bytes = Buffer.from(JSON.stringify(value));
            const body = { bytes, etag: etagOf(bytes) };
            remember(slot, { version, started, body });
            return body;
          })
          .finally(() => inFlight.delete(key)),
      );
      inFlight.set(key, pending);
    }
    return awaitWithinStoreDeadline(pending);
  }

  return {
    get,
    /**
     * The kept answer of `what` (a route's path, an operation) with `params`, for `caller`, at its
     * data's version now: the step the REST facades and /graphql both answer from. Where the answer
     * is the caller's own, its slot names the caller's account.
     */
    answer(
      versioning: AnswerVersioning,
      services: GraphQLServices,
      caller: Principal | null,
      what: string,
      params: Record<string, unknown>,
      compute: () => Promise<unknown>,
    ): Promise<CachedBody> {
      const slot = cacheSlotOf(what, params, versioning.perAccount ? caller : null);
      const version = versioning.version(services, services.now(), caller);
      // Shared data's versions are known at once: no turn of the microtask queue waiting for them.
      return typeof version === 'string' ? get(slot, version, compute) : version.then((known) => get(slot, known, compute));
    },
    size: () => entries.size,
    /** Bytes of the bodies kept. */
    bytes: () => bytes,
  };
}

/**
 * What an answer is of: the route, its parameters in a stable order (`?a=1&b=2` and `?b=2&a=1` share
 * an entry), and the caller's account where the answer is the caller's own.
 */
export const cacheSlotOf = (path: string, params: Record<string, unknown>, owner?: Principal | null): string =>
  `${path}|${JSON.stringify(
    Object.keys(params)
      .sort()
      .map((k) => [k, params[k]]),
  )}${owner ? `|${owner.account.id}` : ''}`;

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
