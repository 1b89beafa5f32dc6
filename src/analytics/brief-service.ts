/** Loads candles for a set of symbols and analyses each (the I/O around the pure analyzeCandles). */
import { type Interval, INTERVAL_MS, type BriefAnalysis } from '../domain/market.js';
import type { MarketRepository } from '../store/markets.js';
import { analyzeCandles, MIN_CANDLES_FOR_FULL_BRIEF } from './brief.js';

/** Candles read per analysis: enough for every indicator, with margin for gaps. */
const BRIEF_HISTORY = MIN_CANDLES_FOR_FULL_BRIEF + 20;

export function createBriefService(markets: MarketRepository) {
  return {
    async analyze(symbols: readonly string[], interval: Interval, now: number): Promise<Map<string, BriefAnalysis>> {
      const since = now - (BRIEF_HISTORY + 1) * INTERVAL_MS[interval];
      const candles = await markets.candlesSince(symbols, interval, since);
      const bySymbol = new Map<string, typeof candles>();
      for (const candle of candles) {
        const list = bySymbol.get(candle.symbol) ?? [];
        list.push(candle);
        bySymbol.set(candle.symbol, list);
      }
      const out = new Map<string, BriefAnalysis>();
      for (const [symbol, list] of bySymbol) {
        const analysis = analyzeCandles(list);
        if (analysis) out.set(symbol, analysis);
      }
      return out;
    },
  };
}

export type BriefService = ReturnType<typeof createBriefService>;
