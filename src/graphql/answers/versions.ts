/**
 * Which GraphQL answers may be kept, and the version that says when one is stale: the data versions
 * the REST routes' response cache uses too, chosen by the fields an operation reads. An
 * operation is cached only when every field it reads at the root has a versioned source; the
 * caller's own data (price alerts) puts the account in the version, so one account's answer is
 * never another's. Fields under their own per-account limit (`@rateLimit`) are never cached: a
 * cached answer would not count against the limit. Everything else is executed each time.
 */
import type { Principal } from '../../auth/authenticator.js';
import { HOUR_MS } from '../../domain/time.js';
import type { GraphQLServices } from '../services.js';
import type { OperationAnalysis } from '../catalogue/plan-requirements.js';

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
