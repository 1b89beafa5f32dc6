/** The read models, loaded from the store before anything serves or runs: markets and latest quotes, prediction markets; the brief service over the store's candles. */
import { createBriefService } from '../analytics/brief-service.js';
import { MarketReadModel } from '../readmodel/market-read-model.js';
import { PredictionReadModel } from '../readmodel/prediction-read-model.js';
import type { Stores } from './stores.js';

export async function loadReadModels({ store, jobsStore }: Stores, now: () => number) {
  const markets = new MarketReadModel();
  await markets.load(jobsStore.markets);
  const predictions = new PredictionReadModel();
  await predictions.load(jobsStore.prediction, now());
  const briefs = createBriefService(store.markets);
  return { markets, predictions, briefs };
}
