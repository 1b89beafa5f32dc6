/**
 * Live subscriptions: quotes (coalesced to one message per symbol per second), the caller's price
 * alert events, movement alerts, one prediction market. Each reads what the read models (kept in
 * step on every instance) and the live events tell; the transport bounds what may wait per client.
 */
import { roundTo, shownPrice } from '../../analytics/round.js';
import { invalid as badRequest, notFound } from '../../domain/errors.js';
import { BRIEF_MAX_SYMBOLS } from '../../domain/limits.js';
import type { Quote } from '../../domain/market.js';
import type { MovementAlert } from '../../domain/prediction.js';
import { parseSymbolList, unknownSymbolsMessage } from '../../domain/symbols.js';
import type { PriceAlertEventModel } from '../../readmodel/live-events.js';
import type { GraphQLContext } from '../context.js';
import type { Resolvers } from '../generated/resolvers.js';
import { coalescePerKey, listenerStream, type StreamBounds } from '../streams.js';

/** At most one quote message per symbol per this. */
export const QUOTE_GAP_MS = 1_000;
/** Messages that may wait for a client that does not read, per subscription. */
export const MAX_QUEUED = 256;

const boundsOf = (context: GraphQLContext): StreamBounds => ({
  maxQueued: MAX_QUEUED,
  onOverflow: () => context.stream?.onSlowConsumer(),
});

export const subscriptionResolvers: Resolvers = {
  Subscription: {
    quotes: {
      subscribe: (_root, { symbols: asked }, context) => {
        const symbols = parseSymbolList(asked);
        if (symbols.length === 0) throw badRequest('symbols is required: one or more, e.g. ["BTC/USD"]');
        if (symbols.length > BRIEF_MAX_SYMBOLS) throw badRequest(`symbols must name at most ${BRIEF_MAX_SYMBOLS} markets`);
        const { markets } = context.services;
        const unknown = symbols.filter((s) => !markets.has(s));
        if (unknown.length > 0) throw notFound(unknownSymbolsMessage(unknown, markets.symbols()));
        const wanted = new Set(symbols);
        const quotes = coalescePerKey<Quote>(
          (push) =>
            markets.onQuotes((changed) => {
              for (const quote of changed) if (wanted.has(quote.symbol)) push(quote);
            }),
          (quote) => quote.symbol,
          QUOTE_GAP_MS,
        );
        return listenerStream(quotes, boundsOf(context));
      },
      resolve: (quote: Quote, _args: unknown, { services }: GraphQLContext) => ({
        quote,
        status: services.markets.get(quote.symbol, services.now())?.status ?? ('inactive' as const),
      }),
    },

    priceAlertEvents: {
      subscribe: (_root, _args, context) =>
        listenerStream<PriceAlertEventModel>((push) => context.services.live.onPriceAlert(context.principal!.account.id, push), boundsOf(context)),
      resolve: (event: PriceAlertEventModel) => event,
    },

    movementAlerts: {
      subscribe: (_root, _args, context) =>
        listenerStream<MovementAlert>(
          (push) =>
            context.services.predictions.onAlerts((alerts) => {
              for (const alert of alerts) push(alert);
            }),
          boundsOf(context),
        ),
      resolve: (alert: MovementAlert) => alert,
    },

    predictionMarket: {
      subscribe: (_root, { id }, context) => {
        const { predictions } = context.services;
        if (!predictions.get(id)) throw notFound(`no prediction market with id ${id}`);
        return listenerStream<string>(
          (push) =>
            predictions.onMarkets((ids) => {
              if (ids.includes(id)) push(id);
            }),
          boundsOf(context),
        );
      },
      resolve: (_changed: string, { id }: { id: string }, { services }: GraphQLContext) => {
        const now = services.now();
        const scored = services.predictions.top(Number.MAX_SAFE_INTEGER, now).find((scored) => scored.market.id === id);
        const market = services.predictions.get(id)!;
        return scored ?? { market, signal: 'wait' as const, move24hPts: null, active: services.predictions.isActive(market, now) };
      },
    },
  },

  QuoteUpdate: {
    symbol: (u) => u.quote.symbol,
    price: (u) => shownPrice(u.quote.price),
    change24h: (u) => roundTo(u.quote.change24h, 2),
    status: (u) => u.status,
    time: (u) => u.quote.observedAt,
  },
};
