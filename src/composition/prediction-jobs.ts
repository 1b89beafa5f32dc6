/**
 * The jobs of prediction markets (variant B): the ingest of the demo feed (live sources reach it
 * through the live feeds) with its movement alerts, the linker that judges the markets whose
 * texts changed, and the morning brief.
 */
import { createBriefWriter } from '../brief/index.js';
import { createMorningBriefService } from '../brief/morning-briefs.js';
import { trackedSymbolOf } from '../ingest/claim-symbols.js';
import { createDemoPredictionFeed } from '../ingest/demo/prediction/feed.js';
import { createLinkModel } from '../ingest/link-model.js';
import { createMarketLinker } from '../ingest/market-linker.js';
import { createPredictionIngestRunner } from '../ingest/prediction-ingest-runner.js';
import { blockingKeys } from '../links/blocking.js';
import { priceClaim } from '../links/claims.js';
import { judgePair } from '../links/judge.js';
import type { JobDeps } from './job-deps.js';

/** The linker, and the ingest that offers it the texts of each batch. */
export function buildPredictionJobs({
  config,
  stores,
  predictions,
  metrics,
  logger,
  now,
}: Pick<JobDeps, 'config' | 'stores' | 'predictions' | 'metrics' | 'logger' | 'now'>) {
  const { jobsStore, notifier } = stores;
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
  return { linker, predictionIngest };
}

export function buildMorningBriefs({ config, stores, predictions, logger, now }: Pick<JobDeps, 'config' | 'stores' | 'predictions' | 'logger' | 'now'>) {
  return createMorningBriefService({
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
}
