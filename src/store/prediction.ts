/** Prediction markets (variant B): metadata, latest observation, hourly history, movement alerts, briefs. */
import type { Kysely } from 'kysely';
import { createMorningBriefs } from './morning-briefs.js';
import { createPredictionHistory } from './prediction-history.js';
import { createPredictionMarkets } from './prediction-markets.js';
import { createPredictionMovements } from './prediction-movements.js';
import { createPredictionObservations } from './prediction-observations.js';
import type { Database } from './tables.js';

export type { Sweep } from './prediction-observations.js';

/** One module per concern, composed over one handle. */
export function createPredictionRepository(db: Kysely<Database>) {
  return {
    ...createPredictionMarkets(db),
    ...createPredictionObservations(db),
    ...createPredictionHistory(db),
    ...createPredictionMovements(db),
    ...createMorningBriefs(db),
  };
}

export type PredictionRepository = ReturnType<typeof createPredictionRepository>;
