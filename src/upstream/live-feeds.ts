/**
 * The live connectors selected by FEEDS, each on its own poller, feeding the two ingest runners.
 * Start-up does not wait for upstreams: the first polls run in the background, and the service
 * serves what the store already holds until they land.
 */
import type { Logger } from 'pino';
import type { UpstreamSettings } from './sources.js';
import type { Connector, MarketDataBatch, PredictionBatch } from './connector.js';
import { createUpstreamHttp } from './http.js';
import { createPoller, type Poller, type PollerStats } from './poller.js';

interface LiveFeedsOptions {
  connectors: Connector[];
  upstream: UpstreamSettings;
  acceptMarketData: (batch: MarketDataBatch) => Promise<void>;
  acceptPrediction: (batch: PredictionBatch) => Promise<void>;
  logger: Logger;
  now: () => number;
}

interface LiveFeeds {
  start(): void;
  stop(): Promise<void>;
  stats(): PollerStats[];
  /** Polls every connector once and waits (tests, the CLI). */
  pollAll(): Promise<void>;
}

export function createLiveFeeds(options: LiveFeedsOptions): LiveFeeds {
  let shutdown = new AbortController();
  const pollers: Poller[] = options.connectors.map((connector) => {
    const settings = options.upstream.sources[connector.source as keyof UpstreamSettings['sources']] ?? {};
    const http = createUpstreamHttp({
      source: connector.source,
      baseUrl: settings.baseUrl ?? connector.defaultBaseUrl,
      timeoutMs: options.upstream.timeoutMs,
      gate: { logger: options.logger },
      // Read when a request is made, so a restart after stop() gets a fresh signal.
      get signal() {
        return shutdown.signal;
      },
    });
    return createPoller({
      connector,
      http,
      pollMs: settings.pollMs ?? connector.pollMs,
      sink: (batch) => (batch.kind === 'market-data' ? options.acceptMarketData(batch) : options.acceptPrediction(batch)),
      logger: options.logger,
      now: options.now,
    });
  });

  return {
    start() {
      if (pollers.length === 0) return;
      if (shutdown.signal.aborted) shutdown = new AbortController();
      options.logger.info({ sources: options.connectors.map((c) => c.source) }, 'live feeds starting');
      for (const poller of pollers) void poller.pollOnce().finally(() => poller.start());
    },
    async stop() {
      shutdown.abort();
      await Promise.all(pollers.map((p) => p.stop()));
    },
    stats: () => pollers.map((p) => p.stats()),
    pollAll: async () => {
      await Promise.all(pollers.map((p) => p.pollOnce()));
    },
  };
}

export type FeedState = 'circuit_open' | 'rate_limited' | 'pending' | 'failing' | 'ok';

/** A source as /ready reports it: its state, and what an operator needs next. */
export interface FeedReport {
  /** Why it is not called (`circuit_open`, `rate_limited`), never polled yet (`pending`), or how its last poll went. */
  state: FeedState;
  lastSuccessAt: string | null;
  /** The last failure (source, host and cause), while the feed is not `ok`. */
  lastError: string | null;
}

export function feedReport(feed: PollerStats): FeedReport {
  const state: FeedState =
    feed.circuit !== 'closed'
      ? 'circuit_open'
      : feed.notBefore !== null
        ? 'rate_limited'
        : feed.lastOutcome === null
          ? 'pending'
          : feed.lastOutcome === 'failed'
            ? 'failing'
            : 'ok';
  return {
    state,
    lastSuccessAt: feed.lastSuccessAt === null ? null : new Date(feed.lastSuccessAt).toISOString(),
    lastError: state === 'ok' ? null : feed.lastError,
  };
}
