/**
 * Runs the market-data feeds: writes each batch to the store first (the truth), then applies it
 * to the in-memory read model, then lets the alert evaluator see it. A failing tick is logged
 * and the next one runs; nothing throws into a request.
 */
import type { Logger } from 'pino';
import type { AlertEvaluator } from '../alerts/alert-evaluator.js';
import { type Interval, INTERVAL_MS, INTERVALS } from '../domain/market.js';
import type { MarketReadModel } from '../readmodel/market-read-model.js';
import type { Store } from '../store/index.js';
import type { DemoFeed, FeedBatch } from './demo/feed.js';

/** Candles kept per interval: several times what a brief reads. */
const CANDLES_KEPT = 500;
const PRUNE_EVERY_MS = 60 * 60_000;

export interface IngestRunnerOptions {
  store: Store;
  markets: MarketReadModel;
  feed: DemoFeed;
  tickMs: number;
  alerts: AlertEvaluator;
  logger: Logger;
  now: () => number;
}

export function createIngestRunner(options: IngestRunnerOptions) {
  const { store, markets, feed, logger } = options;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let lastPrune = 0;
  let stopped = false;

  async function write(batch: FeedBatch): Promise<void> {
    await store.markets.upsertQuotes(batch.quotes);
    await store.markets.upsertCandles(batch.candles);
    markets.applyQuotes(batch.quotes);
  }

  async function prune(now: number): Promise<void> {
    if (now - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = now;
    for (const interval of INTERVALS as readonly Interval[]) {
      await store.markets.pruneCandles(interval, now - CANDLES_KEPT * INTERVAL_MS[interval]);
    }
  }

  async function tick(): Promise<void> {
    const now = options.now();
    const batch = feed.tick(now);
    await write(batch);
    await options.alerts.evaluate(batch.quotes, now);
    await prune(now);
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick()
        .catch((error) => logger.error({ err: error }, 'ingest tick failed; the next tick will retry'))
        .finally(schedule);
    }, options.tickMs);
    timer.unref();
  }

  return {
    /** Declares the markets and backfills history, so every endpoint has data right after start. */
    async start(): Promise<void> {
      const started = Date.now();
      const metas = feed.markets();
      await store.markets.upsertMarkets(metas);
      markets.applyMarkets(metas);
      const history = feed.backfill();
      await write(history);
      await prune(options.now());
      logger.info(
        { markets: metas.length, candles: history.candles.length, ms: Date.now() - started },
        'demo feed backfilled',
      );
      schedule();
    },

    /** Stops ticking and waits for a tick in flight, so no write is cut in half. */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
