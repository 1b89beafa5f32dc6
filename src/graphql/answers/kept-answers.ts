/**
 * The kept answers of the REST routes and /graphql, and the versions that say when one is stale.
 *
 * Which answers may be kept: a REST route that declares how its data is versioned, and a GraphQL
 * operation whose every root field reads a versioned source (the data versions below, chosen by the
 * fields it reads); the caller's own data (price alerts) puts the account in the version, so one
 * account's answer is never another's. Fields under their own per-account limit (`@rateLimit`) are
 * never kept: a kept answer would not count against the limit. Everything else is executed each time.
 *
 * How they are kept: the serialized 200 body per (route or operation, parameters) and data version.
 * Only the newest version of each is kept: versions only move forward, so an older answer is never
 * asked for again, and holding it would fill the budget with the dead. Identical concurrent requests
 * share one computation. Each body carries a strong ETag, so a client that already holds it gets a
 * 304 without anything being executed or sent.
 */
import { createHash } from 'node:crypto';
import type { Principal } from '../../auth/authenticator.js';
import { HOUR_MS } from '../../domain/time.js';
import type { GraphQLServices } from '../services.js';
import type { OperationAnalysis } from '../catalogue/plan-requirements.js';
import { awaitWithinStoreDeadline, outsideStoreDeadline } from '../../deadline/request-deadline.js';

type Source = 'markets' | 'predictions' | 'accountAlerts';

/** The versioned sources of the fields that read them, root fields and the nested ones that reach into another source. */
const SOURCE_OF: Record<string, Source> = {
  'Query.assetMarkets': 'markets',
  'Query.assetMarket': 'markets',
  'Query.predictionMarkets': 'predictions',
  'Query.movementAlerts': 'predictions',
  'Query.priceAlerts': 'accountAlerts',
  'Query.priceAlert': 'accountAlerts',
  'PriceAlert.market': 'markets',
};

/**
 * Nested fields that read data no version follows: the market links, which the linker and the
 * operator change in the store. An operation reading one is executed each time.
 */
const UNVERSIONED = new Set(['PredictionMarket.links', 'PredictionMarket.claim', 'AssetMarket.predictionMarkets']);

/**
 * Each source's version: what changes whenever an answer from it may (time buckets where scores or
 * freshness move with time). The REST routes' response cache uses the same ones.
 */
export const DATA_VERSIONS: Record<Source, (services: GraphQLServices, now: number, principal: Principal | null) => string | Promise<string>> = {
  markets: (services, now) => `m${services.markets.version}.${Math.floor(now / 5_000)}`,
  predictions: (services, now) => `p${services.predictions.version}.${Math.floor(now / HOUR_MS)}`,
  accountAlerts: async (services, _now, principal) => `a${principal!.account.id}.${await services.accountAlerts.version(principal!.account.id)}`,
};

/** How an answer is versioned: the kept /graphql answers' and the REST routes' (their RouteCachePolicy). */
export interface AnswerVersioning {
  /**
   * A value that changes whenever the answer may: read-model versions, and a clock bucket where time
   * matters. An answer that depends on the caller's account names the account in it.
   */
  version(services: GraphQLServices, now: number, principal: Principal | null): string | Promise<string>;
  /** The answer is the caller's own (their alerts): each account has its own entry, not one shared by all. */
  perAccount?: boolean;
}

/** How an operation's answer is kept, or undefined when it must be computed each time. */
export function answerVersioningOf(analysis: OperationAnalysis): AnswerVersioning | undefined {
  const sources = new Set<Source>();
  for (const read of analysis.reads) {
    if (UNVERSIONED.has(read)) return undefined;
    const source = SOURCE_OF[read];
    if (source) sources.add(source);
    else if (read.startsWith('Query.')) return undefined; // a root field without a version: viewer, webhooks, a rate-limited brief
  }
  if (sources.size === 0) return undefined;
  const parts = [...sources].sort().map((source) => DATA_VERSIONS[source]);
  const perAccount = sources.has('accountAlerts');
  // Data fields need a key, so an answer with a version always has its caller. Most operations read
  // one source: its version as it comes, without the array and promises of joining several.
  if (parts.length === 1) return { version: parts[0]!, perAccount };
  return {
    version: async (services, now, principal) => (await Promise.all(parts.map((part) => part(services, now, principal)))).join('|'),
    perAccount,
  };
}

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
   * The body of `slot` at `version`: the kept one, as it is (the request is answered in the same
   * turn), or the promise of the one `compute` produces (once, however many ask at the same time),
   * which then replaces the slot's older version.
   */
  function get(slot: string, version: string, compute: () => Promise<unknown>): CachedBody | Promise<CachedBody> {
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
    ): CachedBody | Promise<CachedBody> {
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
