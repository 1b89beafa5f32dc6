/** Variant A (market data) domain types shared by the store, ingest, analytics and GraphQL layers. */

export const MARKET_TYPES = ['crypto', 'forex', 'stocks'] as const;
export type MarketType = (typeof MARKET_TYPES)[number];

export const MARKET_STATUSES = ['active', 'inactive'] as const;
export type MarketStatus = (typeof MARKET_STATUSES)[number];

export const INTERVALS = ['5m', '15m', '1h', '4h', '1d'] as const;
export type Interval = (typeof INTERVALS)[number];

export const INTERVAL_MS: Record<Interval, number> = {
  '5m': 5 * 60_000,
  '15m': 15 * 60_000,
  '1h': 60 * 60_000,
  '4h': 4 * 60 * 60_000,
  '1d': 24 * 60 * 60_000,
};

/** Static description of a tradable market, as a feed declares it. */
export interface MarketMeta {
  /** `<BASE>/<QUOTE>`, upper case, e.g. `BTC/USD`. */
  symbol: string;
  name: string;
  type: MarketType;
  /** Feed that supplies it (`demo`, `binance`, ...). */
  source: string;
  /** A market with no quote newer than this is reported `inactive` (D7). */
  staleAfterMs: number;
  /** The upstream lists the market as halted. */
  halted: boolean;
}

/** Latest observation of a market. */
export interface Quote {
  symbol: string;
  /** In the quote currency. */
  price: number;
  /** Percent change over 24 hours (-2.35 means -2.35 %). */
  change24h: number;
  /** Traded volume over 24 hours in the base asset. */
  volume24h: number;
  /** Epoch milliseconds. */
  observedAt: number;
}

/** One OHLCV bar of an interval; `openTime` is epoch ms aligned to the interval. */
export interface Candle {
  symbol: string;
  interval: Interval;
  openTime: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export type Trend = 'bullish' | 'bearish' | 'neutral';

/** Indicator values of a brief; null where the history is too short for that indicator. */
export interface Indicators {
  rsi14: number | null;
  sma20: number | null;
  sma50: number | null;
  ema12: number | null;
  ema26: number | null;
  macd: number | null;
  macdSignal: number | null;
  macdHistogram: number | null;
  bollingerUpper: number | null;
  bollingerMiddle: number | null;
  bollingerLower: number | null;
  atr14: number | null;
}

/** The analysis of one symbol over one interval (the `markets[]` element of the brief). */
export interface BriefAnalysis {
  trend: Trend;
  /** 0..1 */
  confidence: number;
  /** Latest close. */
  price: number;
  /** Percent change of the close over the last interval (last close vs the one before). */
  change: number;
  /** Volume of the latest candle. */
  volume: number;
  /** Names of the signals that fire now, e.g. `rsi_overbought`. */
  signals: string[];
  indicators: Indicators;
}
