/** Readiness: the store and Redis reachable, its disk not full, data fresh, and each live feed's state for the operator. */
import fs from 'node:fs';
import { sql } from 'kysely';
import type { DegradedAnswers } from '../edge/degraded.js';
import type { MarketReadModel } from '../readmodel/market-read-model.js';
import type { PredictionReadModel } from '../readmodel/prediction-read-model.js';
import { feedReport, type FeedReport } from '../upstream/live-feeds.js';
import type { Jobs } from './jobs.js';
import type { Stores } from './stores.js';

/** While the store's disk is full: where, and what was seen (`freeBytes` on the embedded store only). */
export interface StorageReport {
  condition: 'disk_full';
  /** The data directory (embedded store), or `the PostgreSQL server`. */
  where: string;
  lastFailureAt: string;
  freeBytes?: number;
}

export interface Readiness {
  ok: boolean;
  checks: Record<string, string>;
  details: { feeds: Record<string, FeedReport>; storage?: StorageReport };
}

/** Free space that is room again after a full disk: many commits' worth of SQLite's 4 KiB pages. */
export const ROOM_BYTES = 1024 * 1024;
/** PostgreSQL's disk cannot be looked at from here: its last disk_full (53100) counts this long. */
export const PG_DISK_FULL_MS = 30_000;

/** Bytes this process may still write on the file system holding `dir`: root may use the blocks reserved for it (ext4 keeps 5 %). */
async function freeBytes(dir: string): Promise<number> {
  const s = await fs.promises.statfs(dir);
  return (process.getuid?.() === 0 ? s.bfree : s.bavail) * s.bsize;
}

/**
 * `disk_full` from the first full-disk failure that a request met (the degraded answers remember
 * it) for as long as it lasts. A failure alone says the disk was full, not that it still is; free
 * space alone cannot tell full from nearly full (SQLite writes on into its WAL's space). So the
 * failure raises the condition and a cheap look confirms it: on the embedded store one statfs of
 * DATA_DIR per /ready, only while a failure is remembered, never a write; it clears by itself once
 * ROOM_BYTES are free, until a newer failure. PostgreSQL's disk is the server's: a 53100 counts
 * PG_DISK_FULL_MS, renewed by every request that meets it.
 */
function storageCheck(degraded: Pick<DegradedAnswers, 'lastDiskFull'>, dataDir: string | undefined, free: (dir: string) => Promise<number>) {
  let cleared = 0; // the last failure that space came back after
  return async (): Promise<StorageReport | undefined> => {
    const seen = degraded.lastDiskFull();
    if (seen === undefined || seen <= cleared) return undefined;
    const report = { condition: 'disk_full' as const, lastFailureAt: new Date(seen).toISOString() };
    if (dataDir === undefined) return Date.now() - seen < PG_DISK_FULL_MS ? { ...report, where: 'the PostgreSQL server' } : undefined;
    const bytes = await free(dataDir).catch(() => undefined); // cannot look: still full, as last seen
    if (bytes !== undefined && bytes >= ROOM_BYTES) {
      cleared = seen;
      return undefined;
    }
    return { ...report, where: dataDir, ...(bytes === undefined ? {} : { freeBytes: bytes }) };
  };
}

export function buildReadiness(deps: {
  stores: Stores;
  markets: MarketReadModel;
  predictions: PredictionReadModel;
  liveFeeds: Jobs['liveFeeds'];
  now: () => number;
  degraded: Pick<DegradedAnswers, 'lastDiskFull'>;
  /** The embedded store's DATA_DIR; undefined on PostgreSQL. */
  dataDir: string | undefined;
  /** Free bytes on the file system holding a directory (tests inject a full one). */
  freeBytes?: (dir: string) => Promise<number>;
}) {
  const { stores, markets, predictions, liveFeeds, now } = deps;
  const storage = storageCheck(deps.degraded, deps.dataDir, deps.freeBytes ?? freeBytes);
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
    const full = await storage();
    checks.storage = full ? full.condition : 'ok';
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
    return {
      ok: checks.store === 'ok' && checks.storage === 'ok' && checks.data === 'fresh' && checks.redis !== 'unreachable',
      checks,
      details: { feeds, ...(full ? { storage: full } : {}) },
    };
  };
}
