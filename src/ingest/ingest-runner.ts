/**
 * Runs the market-data feeds: writes each batch to the store first (the truth), then applies it
 * to the in-memory read model, then lets the alert evaluator see it. Nothing throws into a request.
 * The demo feed ticks here; live connectors hand their batches to accept(). The demo leaves out the
 * symbols a live source serves (see without-symbols.ts), so two feeds never write the same market.
 */
import type { Logger } from 'pino';
import type { AlertEvaluator } from '../alerts/alert-evaluator.js';
import { type Interval, INTERVAL_MS, INTERVALS, type MarketMeta } from '../domain/market.js';
import type { MarketReadModel } from '../readmodel/market-read-model.js';
import type { Store } from '../store/index.js';
import type { MarketDataBatch } from '../upstream/connector.js';
import type { DemoFeed, FeedBatch } from './demo/feed.js';
import { createSerialQueue } from './serial.js';
import { createTicker } from './ticker.js';
import { inBackground, NO_ATTRIBUTES } from '../telemetry/background.js';

/** Candles kept per interval: several times what a brief reads. */
const CANDLES_KEPT = 500;
const PRUNE_EVERY_MS = 60 * 60_000;

interface IngestRunnerOptions {
  store: Store;
  markets: MarketReadModel;
  /** The demo feed, when FEEDS has `demo`. */
  feed?: DemoFeed | undefined;
  tickMs: number;
  alerts: AlertEvaluator;
  /** Told after every write (other instances reload their read models). */
  onChange?: () => void;
  logger: Logger;
  now: () => number;
}

const sameMeta = (a: MarketMeta | undefined, b: MarketMeta): boolean =>
  a !== undefined && a.name === b.name && a.type === b.type && a.source === b.source && a.staleAfterMs === b.staleAfterMs && a.halted === b.halted;

export function createIngestRunner(options: IngestRunnerOptions) {
  const { store, markets, feed, logger } = options;
  let lastPrune = 0;
  const serial = createSerialQueue();

  async function write(batch: FeedBatch): Promise<void> {
    await store.markets.upsertQuotes(batch.quotes);
    await store.markets.upsertCandles(batch.candles);
    markets.applyQuotes(batch.quotes);
    options.onChange?.();
  }

  async function prune(now: number): Promise<void> {
    if (now - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = now;
    for (const interval of INTERVALS as readonly Interval[]) {
      await store.markets.pruneCandles(interval, now - CANDLES_KEPT * INTERVAL_MS[interval]);
    }
  }

  async function writeAndEvaluate(batch: FeedBatch, now: number): Promise<void> {
    await write(batch);
    await options.alerts.evaluate(batch.quotes, now);
    await prune(now);
  }

  /** A live connector's batch: its new or changed markets declared (a symbol moves to the source that now serves it), then its data. */
  async function acceptLive(batch: MarketDataBatch): Promise<void> {
    const changed = batch.markets.filter((m) => !sameMeta(markets.meta(m.symbol), m));
    if (changed.length > 0) {
      await store.markets.upsertMarkets(changed);
      markets.applyMarkets(changed);
      options.onChange?.();
    }
    await writeAndEvaluate({ quotes: batch.quotes, candles: batch.candles }, options.now());
  }

  const ticker = createTicker({
    everyMs: options.tickMs,
    run: () => serial(() => inBackground('market-data ingest tick', NO_ATTRIBUTES, () => writeAndEvaluate(feed!.tick(options.now()), options.now()))),
    logger,
    name: 'market-data ingest tick',
  });

  return {
    /** Declares the markets and backfills history, so every endpoint has data right after start. */
    async start(): Promise<void> {
      if (!feed) return;
      const started = Date.now();
      const metas = feed.markets();
      await store.markets.upsertMarkets(metas);
      markets.applyMarkets(metas);
      const history = feed.backfill();
      await write(history);
      await prune(options.now());
      logger.info({ markets: metas.length, candles: history.candles.length, ms: Date.now() - started }, 'demo feed backfilled');
      ticker.start();
    },

    /** Ingests a live connector's batch (serialized with the demo ticks). */
    accept: (batch: MarketDataBatch) => serial(() => acceptLive(batch)),

    /** Stops ticking and waits for a tick in flight, so no write is cut in half. */
    stop: () => ticker.stop(),
  };
}
