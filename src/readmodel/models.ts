/** What resolvers pass between each other (codegen "mappers"): domain data, before field selection. */
import type { BriefAnalysis, Interval, MarketMeta, MarketStatus, Quote } from '../domain/market.js';
import type { MovementAlert } from '../domain/prediction.js';
import type { MarketLinkView } from '../store/market-links.js';
import type { ScoredPredictionMarket } from './prediction-read-model.js';

export interface AssetMarketModel {
  meta: MarketMeta;
  quote: Quote | undefined;
  status: 'active' | 'inactive';
}

export interface AssetBriefMarketModel {
  symbol: string;
  interval: Interval;
  analysis: BriefAnalysis;
}

export type PredictionMarketModel = ScoredPredictionMarket;
export type MovementAlertModel = MovementAlert;
/** A link as the market asked about sees it, with the other market. */
export type MarketLinkModel = MarketLinkView & { market: PredictionMarketModel };

/** A quote as a live subscription sends it, with the market's status at that moment. */
export interface QuoteUpdateModel {
  quote: Quote;
  status: MarketStatus;
}
