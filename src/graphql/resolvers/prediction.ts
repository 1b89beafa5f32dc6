/** Resolvers of variant B: the most active prediction markets, movement alerts, the morning brief. */
import { wholePercentOf, roundProb } from '../../prediction/percent.js';
import { HISTORY_HOURS, MOVEMENT_ALERTS_LIMIT, TOP_MARKETS } from '../../domain/limits.js';
import type { Resolvers } from '../generated/resolvers.js';
import { assertIntInRange } from './arguments.js';

export const predictionResolvers: Resolvers = {
  Query: {
    predictionMarkets(_root, { limit }, { services }) {
      assertIntInRange('limit', limit, 1, TOP_MARKETS);
      const items = services.predictions.top(limit, services.now());
      return { count: items.length, items };
    },

    predictionMarket: (_root, { id }, { loaders }) => loaders.predictionMarket.load(id),

    movementAlerts(_root, { limit }, { services }) {
      assertIntInRange('limit', limit, MOVEMENT_ALERTS_LIMIT.min, MOVEMENT_ALERTS_LIMIT.max);
      const items = services.predictions.latestAlerts(limit);
      return { count: items.length, items };
    },

    morningBrief: (_root, _args, { services }) => services.morningBriefs.today(),
  },

  PredictionMarket: {
    id: (s) => s.market.id,
    name: (s) => s.market.question,
    question: (s) => s.market.question,
    source: (s) => s.market.source,
    url: (s) => s.market.url,
    probability: (s) => roundProb(s.market.prob),
    probabilityPct: (s) => wholePercentOf(s.market.prob),
    volume24h: (s) => Math.round(s.market.volume24h),
    signal: (s) => s.signal,
    move24hPts: (s) => s.move24hPts,
    active: (s) => s.active,
    updatedAt: (s) => s.market.updatedAt,
    history: (s, { hours }, { loaders }) => {
      assertIntInRange('hours', hours, HISTORY_HOURS.min, HISTORY_HOURS.max);
      return loaders.predictionHistory.load({ id: s.market.id, hours });
    },
  },

  PredictionPoint: {
    time: (p) => p.hourStart,
    probability: (p) => roundProb(p.prob),
    volume24h: (p) => (p.volume24h === null ? null : Math.round(p.volume24h)),
  },

  MovementAlert: {
    market: (a, _args, { loaders }) => loaders.predictionMarket.load(a.marketId),
    type: () => 'movement',
    createdAt: (a) => a.detectedAt,
  },
};
