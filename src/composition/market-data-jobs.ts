/**
 * The jobs of market data (variant A): the ingest of the demo feed (live sources reach it through
 * the live feeds) into the store and the read model, and the price alerts it evaluates, each
 * change counted, woken to the webhooks, published to live subscriptions and told to the notifier.
 */
import { createAlertEvaluator } from '../alerts/alert-evaluator.js';
import { createDemoFeed } from '../ingest/demo/feed.js';
import { withoutSymbols } from '../ingest/demo/without-symbols.js';
import { createIngestRunner } from '../ingest/ingest-runner.js';
import { type createConnectors, liveSymbols } from '../upstream/registry.js';
import type { DeliveryWorker } from '../webhooks/delivery-worker.js';
import type { JobDeps } from './job-deps.js';

export function buildMarketDataJobs(
  { config, stores, markets, briefs, live, metrics, logger, now }: Omit<JobDeps, 'predictions'>,
  connectors: ReturnType<typeof createConnectors>,
  webhooks: Pick<DeliveryWorker, 'wake'>,
) {
  const { jobsStore, notifier } = stores;
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
  return { alerts, ingest };
}
