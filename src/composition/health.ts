/** Readiness: the store and Redis reachable, data fresh, and each live feed's state for the operator. */
import { sql } from 'kysely';
import type { MarketReadModel } from '../readmodel/market-read-model.js';
import type { PredictionReadModel } from '../readmodel/prediction-read-model.js';
import { feedReport, type FeedReport } from '../upstream/live-feeds.js';
import type { Jobs } from './jobs.js';
import type { Stores } from './stores.js';

export interface Readiness {
  ok: boolean;
  checks: Record<string, string>;
  details: { feeds: Record<string, FeedReport> };
}

export function buildReadiness(deps: {
  stores: Stores;
  markets: MarketReadModel;
  predictions: PredictionReadModel;
  liveFeeds: Jobs['liveFeeds'];
  now: () => number;
}) {
  const { stores, markets, predictions, liveFeeds, now } = deps;
  /** `stale`: markets exist but none is active (their quotes are older than their bound); `no data yet`: nothing at all. */
  const dataCheck = (): 'fresh' | 'stale' | 'no data yet' => {
    if (markets.list({ status: 'active' }, now()).length > 0 || predictions.all().length > 0) return 'fresh';
    return markets.list({}, now()).length > 0 ? 'stale' : 'no data yet';
  };
  return async (): Promise<Readiness> => {
    const checks: Record<string, string> = {};
    try {
      await sql`select 1`.execute(stores.store.connection.db);
      checks.store = 'ok';
    } catch {
      checks.store = 'unreachable';
    }
    checks.data = dataCheck();
    const feeds: Record<string, FeedReport> = {};
    for (const feed of liveFeeds.stats()) {
      // Informative only: a failing upstream degrades freshness, not readiness (the last good data is served).
      feeds[feed.source] = feedReport(feed);
      checks[`feed_${feed.source}`] = feeds[feed.source]!.state;
    }
    // A ping, not the connection's state: a hung Redis keeps its connection open and answers
    // nothing; the client's command time-out bounds the wait.
    if (stores.redis)
      checks.redis = (await stores.redis.ping().then(
        () => true,
        () => false,
      ))
        ? 'ok'
        : 'unreachable';
    return { ok: checks.store === 'ok' && checks.data === 'fresh' && checks.redis !== 'unreachable', checks, details: { feeds } };
  };
}
