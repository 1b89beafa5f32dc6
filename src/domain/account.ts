/** Accounts, plans and price alerts (D2, D11). */

export const MARKET_DATA_PLANS = ['free', 'pro', 'enterprise'] as const;
export type MarketDataPlan = (typeof MARKET_DATA_PLANS)[number];

export const PREDICTION_PLANS = ['none', 'pro'] as const;
export type PredictionPlan = (typeof PREDICTION_PLANS)[number];

export type Product = 'marketData' | 'prediction';

/** Keys an account may have at once that are neither revoked nor expired (D2), whichever front creates them. */
export const MAX_LIVE_KEYS_PER_ACCOUNT = 20;

export interface Account {
  id: string;
  name: string;
  marketDataPlan: MarketDataPlan;
  predictionPlan: PredictionPlan;
}

export const ALERT_KINDS = ['price_above', 'price_below', 'change_above', 'signal'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export const ALERT_STATUSES = ['active', 'triggered', 'expired'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

export interface PriceAlert {
  id: string;
  accountId: string;
  symbol: string;
  kind: AlertKind;
  /** Price for price_above/below, percent for change_above, null for signal. */
  threshold: number | null;
  /** Signal name for kind `signal`. */
  signal: string | null;
  status: AlertStatus;
  createdAt: number;
  expiresAt: number | null;
  triggeredAt: number | null;
}
