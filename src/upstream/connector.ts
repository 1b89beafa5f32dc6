/**
 * What a live connector is: a source name, a polling interval, and a poll that fetches, validates
 * and maps one upstream onto the store's model. Connectors are pure of side effects besides HTTP:
 * the scheduler decides when to poll, retries, and hands the batch to ingest.
 */
import type { Candle, MarketMeta, Quote } from '../domain/market.js';
import type { MarketText } from '../domain/links.js';
import type { PredictionMarketMeta, ProbabilityObservation } from '../domain/prediction.js';
import type { UpstreamHttp } from './http.js';
import type { ItemProblems } from './validate.js';

/** Items a connector left out on purpose (not invalid), counted by reason (`unpriced`, ...). */
export type SkippedItems = Record<string, number>;

export interface MarketDataBatch {
  kind: 'market-data';
  markets: MarketMeta[];
  quotes: Quote[];
  candles: Candle[];
  problems: ItemProblems;
  skipped: SkippedItems;
}

export interface PredictionBatch {
  kind: 'prediction';
  source: string;
  /** The poll's time, which every observation of the batch carries. */
  observedAt: number;
  markets: PredictionMarketMeta[];
  observations: ProbabilityObservation[];
  /** What the venue publishes about each market beyond its title (the market links' input). */
  texts: MarketText[];
  problems: ItemProblems;
  skipped: SkippedItems;
  /**
   * True when the batch is the source's whole tracked universe (every page read): a market of
   * this source absent from it has left the source's answer and is no longer ranked.
   */
  complete: boolean;
}

export type UpstreamBatch = MarketDataBatch | PredictionBatch;

export interface PollContext {
  http: UpstreamHttp;
  /** The time the observations are stamped with (epoch ms). */
  now: number;
  /** True on the first successful poll since start: connectors fetch history (backfill) then. */
  backfill: boolean;
  /** The source's polling interval: a paged connector spreads its pages over it. */
  pollMs: number;
  /** Waits between two requests of one poll; rejects when the poller stops. Tests pass one that does not wait. */
  sleep(ms: number): Promise<void>;
}

export interface Connector<B extends UpstreamBatch = UpstreamBatch> {
  /** Lower case, as in FEEDS and `source`: `binance`, `polymarket`, ... */
  readonly source: string;
  readonly kind: B['kind'];
  /** Default polling interval; `<SOURCE>_POLL_MS` overrides it. */
  readonly pollMs: number;
  /** Default base URL; `<SOURCE>_BASE_URL` overrides it. */
  readonly defaultBaseUrl: string;
  poll(context: PollContext): Promise<B>;
}
