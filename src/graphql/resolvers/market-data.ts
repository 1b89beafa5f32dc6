/** Resolvers of variant A: asset markets, briefs and price alerts. */
import { cancelPriceAlert, createPriceAlert } from '../../alerts/create-alert.js';
import { roundTo, shownPrice, shownVolume } from '../../analytics/round.js';
import { INTERVALS, type Interval } from '../../domain/market.js';
import { BRIEF_LIMIT, BRIEF_MAX_SYMBOLS, CANDLES_PAGE, MARKETS_PAGE } from '../../domain/limits.js';
import { normalizeSymbol, parseSymbolList, unknownSymbolsMessage } from '../../domain/symbols.js';
import { invalid as badRequest, notFound } from '../../domain/errors.js';
import type { Resolvers } from '../generated/resolvers.js';
import { assertIntInRange } from './arguments.js';
import { accountScope } from '../../domain/scope.js';

export const marketDataResolvers: Resolvers = {
  Query: {
    assetMarkets(_root, { filter, limit, offset }, { services }) {
      assertIntInRange('limit', limit, MARKETS_PAGE.min, MARKETS_PAGE.max);
      if (!Number.isInteger(offset) || offset < 0) throw badRequest('offset must be an integer >= 0');
      const all = services.markets.list({ type: filter?.type ?? undefined, status: filter?.status ?? undefined }, services.now());
      return { total: all.length, items: all.slice(offset, offset + limit) };
    },

    async assetMarket(_root, { symbol }, { loaders }) {
      return loaders.assetMarket.load(normalizeSymbol(symbol));
    },

    async assetBrief(_root, args, { services, loaders }) {
      const interval = args.interval as Interval;
      if (!INTERVALS.includes(interval)) throw badRequest(`interval must be one of ${INTERVALS.join(', ')}`);
      assertIntInRange('limit', args.limit, BRIEF_LIMIT.min, BRIEF_LIMIT.max);
      const symbols = parseSymbolList(args.symbols);
      if (symbols.length === 0) throw badRequest('symbols is required: one or more symbols separated by commas, e.g. BTC/USD,ETH/USD');
      if (symbols.length > BRIEF_MAX_SYMBOLS) throw badRequest(`symbols must name at most ${BRIEF_MAX_SYMBOLS} markets`);
      const unknown = symbols.filter((s) => !services.markets.has(s));
      if (unknown.length > 0) throw notFound(unknownSymbolsMessage(unknown, services.markets.symbols()));

      const answered = symbols.slice(0, args.limit);
      const analyses = await Promise.all(answered.map((symbol) => loaders.briefAnalysis.load({ symbol, interval })));
      const markets = answered.flatMap((symbol, i) => {
        const analysis = analyses[i];
        return analysis ? [{ symbol, interval, analysis }] : [];
      });
      return { interval, markets };
    },

    async priceAlerts(_root, { status, symbol }, { principal, services }) {
      const items = await services.accountAlerts.list(principal!.account.id, {
        status: status ?? undefined,
        symbol: symbol ? normalizeSymbol(symbol) : undefined,
      });
      return { total: items.length, items };
    },

    async priceAlert(_root, { id }, { principal, services }) {
      // Another account's alert is answered like a missing one: ids are not a way to probe.
      return (await services.store.priceAlerts.findById(id, accountScope(principal!.account.id))) ?? null;
    },
  },

  Mutation: {
    async createPriceAlert(_root, { input }, { principal, services }) {
      const alert = await createPriceAlert(
        services.store,
        principal!.account,
        { symbol: input.symbol, kind: input.kind, threshold: input.threshold, signal: input.signal, expiresAt: input.expiresAt },
        services.now(),
      );
      services.accountAlerts.changed(alert.accountId);
      return alert;
    },

    async cancelPriceAlert(_root, { id }, { principal, services }) {
      const cancelled = await cancelPriceAlert(services.store, principal!.account.id, id);
      services.accountAlerts.changed(cancelled.accountId);
      return cancelled;
    },
  },

  AssetMarket: {
    id: (m) => m.meta.symbol,
    symbol: (m) => m.meta.symbol,
    name: (m) => m.meta.name,
    source: (m) => m.meta.source,
    type: (m) => m.meta.type,
    status: (m) => m.status,
    // Shown rounded, once, here: quotes are kept as the upstream sent them (crosses and changes unrounded).
    price: (m) => (m.quote ? shownPrice(m.quote.price) : null),
    change24h: (m) => (m.quote ? roundTo(m.quote.change24h, 2) : null),
    volume24h: (m) => (m.quote ? shownVolume(m.quote.volume24h) : null),
    updatedAt: (m) => m.quote?.observedAt ?? null,
    candles: (m, { interval, limit, before }, { loaders }) => {
      if (!INTERVALS.includes(interval as Interval)) throw badRequest(`interval must be one of ${INTERVALS.join(', ')}`);
      assertIntInRange('limit', limit, CANDLES_PAGE.min, CANDLES_PAGE.max);
      return loaders.candles.load({ symbol: m.meta.symbol, interval: interval as Interval, limit, before: before ?? null });
    },
  },

  Candle: {
    open: (c) => shownPrice(c.open),
    high: (c) => shownPrice(c.high),
    low: (c) => shownPrice(c.low),
    close: (c) => shownPrice(c.close),
    volume: (c) => shownVolume(c.volume),
  },

  AssetBriefMarket: {
    symbol: (b) => b.symbol,
    market: async (b, _args, { loaders }) => (await loaders.assetMarket.load(b.symbol))!,
    trend: (b) => b.analysis.trend,
    confidence: (b) => b.analysis.confidence,
    price: (b) => b.analysis.price,
    change: (b) => b.analysis.change,
    volume: (b) => b.analysis.volume,
    signals: (b) => b.analysis.signals,
    indicators: (b) => b.analysis.indicators,
  },

  PriceAlert: {
    market: (a, _args, { loaders }) => loaders.assetMarket.load(a.symbol),
  },
};
