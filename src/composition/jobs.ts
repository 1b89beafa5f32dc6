/**
 * The background jobs: demo and live feeds ingested into the store and the read models, price and
 * movement alerts, the morning brief. `start` and `stop` run them all; with PostgreSQL the lease
 * (coordination.ts) decides which instance does.
 */
import type { Logger } from 'pino';
import { createAlertEvaluator } from '../alerts/alert-evaluator.js';
import type { BriefService } from '../analytics/brief-service.js';
import { createBriefWriter } from '../brief/index.js';
import { createMorningBriefService } from '../brief/morning-briefs.js';
import type { Config } from '../config/config.js';
import { createDemoFeed } from '../ingest/demo/feed.js';
import { createDemoPredictionFeed } from '../ingest/demo/prediction/feed.js';
import { withoutSymbols } from '../ingest/demo/without-symbols.js';
import { createIngestRunner } from '../ingest/ingest-runner.js';
import { trackedSymbolOf } from '../ingest/claim-symbols.js';
import { createLinkModel } from '../ingest/link-model.js';
import { createMarketLinker } from '../ingest/market-linker.js';
import { createPredictionIngestRunner } from '../ingest/prediction-ingest-runner.js';
import { blockingKeys } from '../links/blocking.js';
import { priceClaim } from '../links/claims.js';
import { judgePair } from '../links/judge.js';
import type { createMetrics } from '../metrics/metrics.js';
import type { MarketReadModel } from '../readmodel/market-read-model.js';
import type { LiveEvents } from '../readmodel/live-events.js';
import type { PredictionReadModel } from '../readmodel/prediction-read-model.js';
import { createLiveFeeds } from '../upstream/live-feeds.js';
import { createConnectors, liveSymbols } from '../upstream/registry.js';
import { createConnectAgents } from '../webhooks/destination.js';
import { createDeliveryWorker } from '../webhooks/delivery-worker.js';
import type { AttemptResult } from '../webhooks/retry-schedule.js';
import { packageVersion } from '../package-info.js';
import type { Stores } from './stores.js';

/** An attempt's result as a metric label: the status class, or how it failed. */
function attemptResultLabel(result: AttemptResult): string {
  if (result.kind === 'answered') return `${Math.floor(result.status / 100)}xx`;
  if (result.error.startsWith('destination refused')) return 'refused';
  return result.error.startsWith('no answer within') ? 'timeout' : 'error';
}

interface JobDeps {
  config: Config;
  stores: Stores;
  markets: MarketReadModel;
  predictions: PredictionReadModel;
  briefs: BriefService;
  /** Where price alert events go for live subscriptions. */
  live: LiveEvents;
  metrics: ReturnType<typeof createMetrics>;
  logger: Logger;
  now: () => number;
}

export function buildJobs({ config, stores, markets, predictions, briefs, live, metrics, logger, now }: JobDeps) {
  const { jobsStore, notifier } = stores;
  const connectors = createConnectors(config.feeds.live, config.upstream);
  const webhookAgents = createConnectAgents(config.webhooks.policy);
  const webhooks = createDeliveryWorker({
    repo: jobsStore.webhooks,
    agents: webhookAgents,
    ...config.webhooks,
    userAgent: `market-gateway/${packageVersion()} (webhooks)`,
    now,
    logger,
    onAttempt: (result) => metrics.webhookAttempts.inc({ result: attemptResultLabel(result) }),
    onOutcome: (outcome) => metrics.webhookDeliveries.inc({ outcome }),
  });
  const alerts = createAlertEvaluator({
    alerts: jobsStore.priceAlerts,
    briefs,
    logger,
    onTransition: (alert, status, at) => {
      metrics.alerts.inc({ kind: `price_${status}` });
      void webhooks.wake();
      live.publishPriceAlert({ type: status, alert: { ...alert, status, triggeredAt: status === 'triggered' ? at : null }, at });
      notifier?.priceAlertChanged(alert.id, at);
    },
  });
  const ingest = createIngestRunner({
    store: jobsStore,
    markets,
    // The demo leaves out the symbols a live source serves.
    feed: config.feeds.demo ? withoutSymbols(createDemoFeed({ seed: config.demoSeed, now: now() }), liveSymbols(connectors)) : undefined,
    tickMs: config.demoTickMs,
    alerts,
    onChange: () => notifier?.changed('market-data'),
    logger,
    now,
  });
  const linker = createMarketLinker({
    repo: jobsStore.marketLinks,
    rules: {
      judge: judgePair,
      keysOf: blockingKeys,
      claimOf: (text) => priceClaim(text, trackedSymbolOf),
      ...(config.llm.baseUrl ? { askModel: createLinkModel({ ...config.llm, baseUrl: config.llm.baseUrl }) } : {}),
    },
    now,
    logger,
  });
  const predictionIngest = createPredictionIngestRunner({
    repo: jobsStore.prediction,
    readModel: predictions,
    feed: config.feeds.demo ? createDemoPredictionFeed({ seed: config.demoSeed, now: now() }) : undefined,
    tickMs: config.demoTickMs,
    onChange: () => notifier?.changed('prediction'),
    onAlerts: (count) => metrics.alerts.inc({ kind: 'movement' }, count),
    onTexts: linker.offer,
    logger,
    now,
  });
  const liveFeeds = createLiveFeeds({
    connectors,
    upstream: config.upstream,
    acceptMarketData: ingest.accept,
    acceptPrediction: predictionIngest.accept,
    logger,
    now,
  });
  metrics.watchFeeds(() => liveFeeds.stats());
  const morningBriefs = createMorningBriefService({
    repo: stores.store.prediction,
    readModel: predictions,
    composer: createBriefWriter(
      { llmBaseUrl: config.llm.baseUrl, llmModel: config.llm.model, llmApiKey: config.llm.apiKey, llmTimeoutMs: config.llm.timeoutMs },
      logger,
    ),
    hourUtc: config.briefHourUtc,
    now,
    logger,
  });

  return {
    alerts,
    webhooks,
    ingest,
    predictionIngest,
    linker,
    liveFeeds,
    morningBriefs,
    async start(): Promise<void> {
      linker.start();
      await Promise.all([ingest.start(), predictionIngest.start()]);
      liveFeeds.start();
      morningBriefs.start();
      webhooks.start();
    },
    async stop(): Promise<void> {
      await Promise.all([liveFeeds.stop(), ingest.stop(), predictionIngest.stop(), linker.stop(), morningBriefs.stop(), webhooks.stop()]);
    },
    /** Closes the webhook connections kept alive; after the last stop. */
    close(): void {
      webhookAgents.destroy();
    },
  };
}

export type Jobs = ReturnType<typeof buildJobs>;
