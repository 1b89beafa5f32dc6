/** Resolvers of variant B. The prediction-market data arrives with the variant B issue; until then
 * these fields answer a clear 503 instead of pretending to have data. */
import { ApiError } from '../../http/errors.js';
import type { Resolvers } from '../generated/resolvers.js';

const unavailable = () => {
  throw new ApiError(503, 'prediction-market data is not available in this version');
};

export const predictionResolvers: Resolvers = {
  Query: {
    predictionMarkets: unavailable,
    movementAlerts: unavailable,
    morningBrief: unavailable,
  },
};
