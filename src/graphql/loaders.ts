/** DataLoaders, created per request (never shared: they cache per caller). */
import DataLoader from 'dataloader';
import type { BriefAnalysis, Interval } from '../domain/market.js';
import type { GraphQLServices } from './services.js';
import type { AssetMarketModel, PredictionMarketModel } from '../readmodel/models.js';

export interface Loaders {
  /** Asset market by upper-case symbol, from the in-memory read model. */
  assetMarket: DataLoader<string, AssetMarketModel | null>;
  /** Brief analysis by `interval` + symbol: one candle query per interval for all symbols. */
  briefAnalysis: DataLoader<{ symbol: string; interval: Interval }, BriefAnalysis | null, string>;
  /** Prediction market by id: scored from the read model, or (no longer tracked) one store query for all misses. */
  predictionMarket: DataLoader<string, PredictionMarketModel | null>;
}

export function createLoaders(services: GraphQLServices): Loaders {
  return {
    assetMarket: new DataLoader(async (symbols) => {
      const now = services.now();
      return symbols.map((s) => services.markets.get(s, now) ?? null);
    }),
    briefAnalysis: new DataLoader(
      async (keys) => {
        const byInterval = new Map<Interval, string[]>();
        for (const { symbol, interval } of keys) {
          byInterval.set(interval, [...(byInterval.get(interval) ?? []), symbol]);
        }
        const results = new Map<string, BriefAnalysis | null>();
        for (const [interval, symbols] of byInterval) {
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
  };
}
