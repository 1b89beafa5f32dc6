/**
 * Runs a prediction-market feed: every batch of observations goes to the store (the truth), then
 * to the read model, then through the movement detector, whose alerts and baselines are stored
 * together before the read model sees the alerts.
 */
import type { Logger } from 'pino';
import type { MarketText } from '../domain/links.js';
import type { PredictionMarketMeta, ProbabilityObservation } from '../domain/prediction.js';
import type { PredictionReadModel } from '../readmodel/prediction-read-model.js';
import type { PredictionRepository, Sweep } from '../store/prediction.js';
import type { PredictionBatch } from '../upstream/connector.js';
import { createHistoryPruner, createMovementIngest } from './prediction-writes.js';
import { createSerialQueue } from './serial.js';
import { createTicker } from './ticker.js';
import { inBackground, NO_ATTRIBUTES } from '../telemetry/background.js';

/** What a prediction feed offers: the demo feed today, live platforms later. */
export interface PredictionFeed {
  markets(): PredictionMarketMeta[];
  /** Recent history, so every endpoint has data right after start. */
  backfill(): ProbabilityObservation[];
  tick(now: number): ProbabilityObservation[];
  /** What each market's venue publishes beyond its title, for the market links. */
  texts?(): MarketText[];
}

interface PredictionIngestOptions {
  repo: PredictionRepository;
  readModel: PredictionReadModel;
  /** The demo feed, when FEEDS has `demo`; live connectors hand their batches to accept(). */
  feed?: PredictionFeed | undefined;
  tickMs: number;
  logger: Logger;
  /** Told after every write (other instances reload their read models). */
  onChange?: () => void;
  /** Told how many movement alerts each write stored (metrics). */
  onAlerts?: (count: number) => void;
  /** Given every batch's texts (the market links' linker); it does not hold ingest up. */
  onTexts?: (texts: readonly MarketText[]) => void;
  now: () => number;
}

/** The markets of a batch that are new, or whose question, link or topic changed. */
function changedMarkets(readModel: PredictionReadModel, markets: readonly PredictionMarketMeta[]): PredictionMarketMeta[] {
  return markets.filter((m) => {
    const known = readModel.get(m.id);
    return !known || known.question !== m.question || known.url !== m.url || known.topic !== m.topic;
  });
}

export function createPredictionIngestRunner(options: PredictionIngestOptions) {
  const { repo, readModel, feed, logger } = options;
  const { ingest, loadBaselines: reloadDetector } = createMovementIngest(options);
  const prune = createHistoryPruner(repo);
  const serial = createSerialQueue();
  let started = false;

  async function tickAt(now: number, observations: readonly ProbabilityObservation[], sweep?: Sweep): Promise<void> {
    const alerts = await ingest(observations, sweep);
    if (alerts.length > 0) logger.info({ alerts: alerts.length }, 'movement alerts detected');
    await prune(now);
  }

  /** A live connector's batch: new or changed markets declared, then the observations ingested. */
  async function acceptLive(batch: PredictionBatch): Promise<void> {
    // Before start() the detector has not read its stored baselines yet: load them first.
    if (!started) await loadBaselines();
    const changed = changedMarkets(readModel, batch.markets);
    if (changed.length > 0) {
      await repo.upsertMarkets(changed);
      readModel.applyMarkets(changed);
    }
    // Only a complete answer says which markets the source no longer lists; a partial one (a rate
    // limit or a failed page mid-way) leaves the markets it did not reach as they were.
    if (!batch.complete) {
      logger.warn(
        { source: batch.source, markets: batch.markets.length, reason: batch.problems.examples[0] },
        'source answered in part; markets not reached keep their last data',
      );
    }
    await tickAt(options.now(), batch.observations, batch.complete ? { source: batch.source, at: batch.observedAt } : undefined);
    options.onTexts?.(batch.texts);
  }

  async function loadBaselines(): Promise<void> {
    await reloadDetector();
    started = true;
  }

  const ticker = createTicker({
    everyMs: options.tickMs,
    name: 'prediction ingest tick',
    logger,
    run: () => serial(() => inBackground('prediction ingest tick', NO_ATTRIBUTES, () => tickAt(options.now(), feed!.tick(options.now())))),
  });

  return {
    /** Declares the markets and replays the feed's history through the detector. */
    start: () =>
      serial(async () => {
        if (!started) await loadBaselines();
        if (!feed) return;
        const startedAt = Date.now();
        const metas = feed.markets();
        await repo.upsertMarkets(metas);
        readModel.applyMarkets(metas);
        // After a restart only what is newer than the stored data counts: the past is not rewritten.
        const history = feed.backfill().filter((o) => o.observedAt > (readModel.get(o.marketId)?.updatedAt ?? -Infinity));
        const alerts = await ingest(history);
        await prune(options.now());
        logger.info({ markets: metas.length, observations: history.length, alerts: alerts.length, ms: Date.now() - startedAt }, 'prediction feed backfilled');
        options.onTexts?.(feed.texts?.() ?? []);
        ticker.start();
      }),
    accept: (batch: PredictionBatch) => serial(() => acceptLive(batch)),
    async stop() {
      await ticker.stop();
      // Another worker may move the baselines while this one is not the leader: read them again on the next start.
      started = false;
    },
  };
}
