/** What the background jobs are built from (jobs.ts and the builders of each group of jobs; the services take their parts from it too). */
import type { Logger } from 'pino';
import type { BriefService } from '../analytics/brief-service.js';
import type { Config } from '../config/config.js';
import type { createMetrics } from '../metrics/metrics.js';
import type { LiveEvents } from '../readmodel/live-events.js';
import type { MarketReadModel } from '../readmodel/market-read-model.js';
import type { PredictionReadModel } from '../readmodel/prediction-read-model.js';
import type { Stores } from './stores.js';

export interface JobDeps {
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
