/**
 * The background jobs: demo and live feeds ingested into the store and the read models, price and
 * movement alerts, the morning brief. `start` and `stop` run them all; with PostgreSQL the lease
 * (coordination.ts) decides which instance does.
 */
import { createLiveFeeds } from '../upstream/live-feeds.js';
import { createConnectors } from '../upstream/registry.js';
import type { JobDeps } from './job-deps.js';
import { buildMarketDataJobs } from './market-data-jobs.js';
import { buildMorningBriefs, buildPredictionJobs } from './prediction-jobs.js';
import { buildWebhookWorker } from './webhook-jobs.js';

export function buildJobs(deps: JobDeps) {
  const { config, metrics, logger, now } = deps;
  const connectors = createConnectors(config.feeds.live, config.upstream);
  const { webhookAgents, webhooks } = buildWebhookWorker(deps);
  const { alerts, ingest } = buildMarketDataJobs(deps, connectors, webhooks);
  const { linker, predictionIngest } = buildPredictionJobs(deps);
  const liveFeeds = createLiveFeeds({
    connectors,
    upstream: config.upstream,
    acceptMarketData: ingest.accept,
    acceptPrediction: predictionIngest.accept,
    logger,
    now,
  });
  metrics.watchFeeds(() => liveFeeds.stats());
  const morningBriefs = buildMorningBriefs(deps);

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
