/** DataLoaders, created per request (never shared: they cache per caller). */
import DataLoader from 'dataloader';
import { invalid } from '../domain/errors.js';
import { CANDLES_PER_OPERATION } from '../domain/limits.js';
import type { BriefAnalysis, Candle, Interval } from '../domain/market.js';
import type { PriceClaim } from '../domain/links.js';
import type { ChartPoint } from '../domain/prediction.js';
import type { MarketLinkView } from '../store/market-links.js';
import { HOUR_MS } from '../domain/time.js';
import type { GraphQLServices } from './services.js';
import type { AssetMarketModel, PredictionMarketModel } from '../readmodel/models.js';

export interface Loaders {
  /** Asset market by upper-case symbol, from the in-memory read model. */
  assetMarket: DataLoader<string, AssetMarketModel | null>;
  /** Brief analysis by `interval` + symbol: one candle query per interval for all symbols. */
  briefAnalysis: DataLoader<{ symbol: string; interval: Interval }, BriefAnalysis | null, string>;
  /** Prediction market by id: scored from the read model, or (no longer tracked) one store query for all misses. */
  predictionMarket: DataLoader<string, PredictionMarketModel | null>;
  /** A chart page of candles per market: one call to the store for every market asking the same page. */
  candles: DataLoader<CandlePageKey, Candle[], string>;
  /** A prediction market's links (decisions over verdicts), as it sees them: one store query for all. */
  marketLinks: DataLoader<string, MarketLinkView[]>;
  /** A prediction market's price claim, null when it makes none: one store query for all. */
  priceClaim: DataLoader<string, PriceClaim | null>;
  /** A prediction market's hourly chart: one store query for every market asking the same hours. */
  predictionHistory: DataLoader<{ id: string; hours: number }, ChartPoint[], string>;
}

export interface CandlePageKey {
  symbol: string;
  interval: Interval;
  limit: number;
  before: number | null;
}

/** Keys grouped by what they share besides their market, so each group is one store call. */
function groupBy<K>(keys: readonly K[], group: (key: K) => string): Map<string, K[]> {
  const groups = new Map<string, K[]>();
  for (const key of keys) groups.set(group(key), [...(groups.get(group(key)) ?? []), key]);
  return groups;
}

const pageOf = (k: CandlePageKey) => `${k.interval}|${k.limit}|${k.before ?? ''}`;

export function createLoaders(services: GraphQLServices): Loaders {
  let candlesAsked = 0;
  return {
    assetMarket: new DataLoader(async (symbols) => {
      const now = services.now();
      return symbols.map((s) => services.markets.get(s, now) ?? null);
    }),
    briefAnalysis: new DataLoader(
      async (keys) => {
        const results = new Map<string, BriefAnalysis | null>();
        for (const group of groupBy(keys, (k) => k.interval).values()) {
          const { interval } = group[0]!;
          const symbols = group.map((k) => k.symbol);
          const analyses = await services.briefs.analyze(symbols, interval, services.now());
          for (const symbol of symbols) results.set(`${interval}|${symbol}`, analyses.get(symbol) ?? null);
        }
        return keys.map((k) => results.get(`${k.interval}|${k.symbol}`) ?? null);
      },
      { cacheKeyFn: (k) => `${k.interval}|${k.symbol}` },
    ),
    predictionMarket: new DataLoader(async (ids) => {
      const scored = new Map(services.predictions.top(Number.MAX_SAFE_INTEGER, services.now()).map((s) => [s.market.id, s]));
      const missing = ids.filter((id) => !scored.has(id));
      const stored = new Map((await services.store.prediction.marketsByIds(missing)).map((m) => [m.id, m]));
      return ids.map((id) => {
        const market = stored.get(id);
        return scored.get(id) ?? (market ? { market, signal: 'wait' as const, move24hPts: null, active: false } : null);
      });
    }),
    marketLinks: new DataLoader(async (ids) => {
      const links = await services.store.marketLinks.linksOf(ids);
      return ids.map((id) => links.get(id) ?? []);
    }),
    priceClaim: new DataLoader(async (ids) => {
      const claims = await services.store.marketLinks.claimsOf(ids);
      return ids.map((id) => claims.get(id) ?? null);
    }),
    candles: new DataLoader(
      async (keys) => {
        // Aliases and lists can ask for many pages in one operation: the whole is bounded.
        candlesAsked += keys.reduce((sum, k) => sum + k.limit, 0);
        if (candlesAsked > CANDLES_PER_OPERATION)
          throw invalid(`at most ${CANDLES_PER_OPERATION} candles per operation; ask for fewer markets or a smaller limit`);
        const results = new Map<string, Candle[]>();
        for (const group of groupBy(keys, pageOf).values()) {
          const { interval, limit, before } = group[0]!;
          const pages = await services.store.markets.candlePages(
            group.map((k) => k.symbol),
            interval,
            limit,
            before,
          );
          for (const k of group) results.set(`${pageOf(k)}|${k.symbol}`, pages.get(k.symbol) ?? []);
        }
        return keys.map((k) => results.get(`${pageOf(k)}|${k.symbol}`) ?? []);
      },
      { cacheKeyFn: (k) => `${pageOf(k)}|${k.symbol}` },
    ),
    predictionHistory: new DataLoader(
      async (keys) => {
        const results = new Map<string, ChartPoint[]>();
        const hourNow = Math.floor(services.now() / HOUR_MS) * HOUR_MS;
        for (const [hours, group] of groupBy(keys, (k) => String(k.hours))) {
          const charts = await services.store.prediction.chartHistory(
            group.map((k) => k.id),
            hourNow - (Number(hours) - 1) * HOUR_MS,
          );
          for (const k of group) results.set(`${hours}|${k.id}`, charts.get(k.id) ?? []);
        }
        return keys.map((k) => results.get(`${k.hours}|${k.id}`) ?? []);
      },
      { cacheKeyFn: (k) => `${k.hours}|${k.id}` },
    ),
  };
}
