/**
 * Resolvers of the market links (docs/links.md): a market's links and price claim, the prediction
 * markets about an asset, the groups of markets that are one question, and their spreads live.
 * They read what the linker stored; nothing is judged on a request.
 */
import { roundTo } from '../../analytics/round.js';
import { invalid as badRequest } from '../../domain/errors.js';
import { assetCodeOf } from '../../ingest/claim-symbols.js';
import type { PredictionEventModel } from '../../links/events.js';
import { crossing, type SpreadChange, type SpreadCrossingChange } from '../../readmodel/prediction-events.js';
import type { PredictionMarketModel } from '../../readmodel/models.js';
import type { Resolvers } from '../generated/resolvers.js';
import { listenerStream } from '../streams.js';
import { assertIntInRange } from './arguments.js';
import { MAX_QUEUED } from './subscriptions.js';

const EVENTS_LIMIT = { min: 1, max: 100 };
const EVENT_VENUES = { min: 2, max: 10 };

const known = (markets: readonly (PredictionMarketModel | null | Error)[]): PredictionMarketModel[] =>
  markets.filter((m): m is PredictionMarketModel => m !== null && !(m instanceof Error));

export const linkResolvers: Resolvers = {
  Query: {
    async predictionEvents(_root, { limit, minVenues }, { services }) {
      assertIntInRange('limit', limit, EVENTS_LIMIT.min, EVENTS_LIMIT.max);
      assertIntInRange('minVenues', minVenues, EVENT_VENUES.min, EVENT_VENUES.max);
      return (await services.predictionEvents.list(minVenues)).slice(0, limit);
    },
  },

  Subscription: {
    predictionEventSpreads: {
      subscribe: (_root, { minSpreadPts }, context) => {
        if (!(minSpreadPts >= 0 && minSpreadPts <= 100)) throw badRequest('minSpreadPts must be a number from 0 to 100');
        return listenerStream<SpreadCrossingChange>(
          (push) =>
            context.services.predictionEvents.onSpreadChanges((changes: readonly SpreadChange[]) => {
              for (const change of changes) {
                const direction = crossing(change, minSpreadPts);
                if (direction) push({ ...change, direction });
              }
            }),
          { maxQueued: MAX_QUEUED, onOverflow: () => context.stream?.onSlowConsumer() },
        );
      },
      resolve: (change: SpreadCrossingChange) => change,
    },
  },

  PredictionMarket: {
    async links(s, { relations }, { loaders }) {
      const links = (await loaders.marketLinks.load(s.market.id)).filter((l) => l.relation !== 'different' && (!relations || relations.includes(l.relation)));
      const others = await loaders.predictionMarket.loadMany(links.map((l) => l.otherId));
      // A market the gateway no longer knows has no row to show: its link is left out.
      return links.flatMap((link, i) => {
        const market = others[i];
        return market && !(market instanceof Error) ? [{ ...link, market }] : [];
      });
    },
    claim: (s, _args, { loaders }) => loaders.priceClaim.load(s.market.id),
  },

  PriceClaim: {
    assetCode: (c) => c.asset,
    asset: (c, _args, { loaders }) => (c.symbol ? loaders.assetMarket.load(c.symbol) : null),
    upper: (c) => c.upper ?? null,
    from: (c) => c.from ?? null,
    async distancePct(c, _args, { loaders }) {
      const price = c.symbol ? (await loaders.assetMarket.load(c.symbol))?.quote?.price : undefined;
      return price ? roundTo(((c.threshold - price) / price) * 100, 2) : null;
    },
  },

  AssetMarket: {
    async predictionMarkets(m, _args, { services, loaders }) {
      const ids = await services.store.marketLinks.marketIdsClaiming(assetCodeOf(m.meta.symbol));
      const [markets, claims] = await Promise.all([loaders.predictionMarket.loadMany(ids), loaders.priceClaim.loadMany(ids)]);
      const until = new Map(ids.map((id, i) => [id, (claims[i] as { until: number } | null)?.until ?? Number.POSITIVE_INFINITY]));
      return known(markets).sort((x, y) => until.get(x.market.id)! - until.get(y.market.id)! || x.market.id.localeCompare(y.market.id));
    },
  },

  PredictionEvent: {
    markets: (e: PredictionEventModel, _args, { loaders }) => loaders.predictionMarket.loadMany(e.members.map((m) => m.market.id)).then(known),
    volume24h: (e) => Math.round(e.volume24h),
  },
};
