/**
 * Internal values of the schema's enums. GraphQL shows `CRYPTO`, `M5`, `BULLISH`; inside,
 * resolvers and the store use the REST spellings (`crypto`, `5m`, `bullish`), so the facade
 * and the domain never translate by hand.
 */
export const MarketTypeValues = { CRYPTO: 'crypto', FOREX: 'forex', STOCKS: 'stocks' } as const;
export const MarketStatusValues = { ACTIVE: 'active', INACTIVE: 'inactive' } as const;
export const IntervalValues = { M5: '5m', M15: '15m', H1: '1h', H4: '4h', D1: '1d' } as const;
export const TrendValues = { BULLISH: 'bullish', BEARISH: 'bearish', NEUTRAL: 'neutral' } as const;
export const AlertKindValues = {
  PRICE_ABOVE: 'price_above',
  PRICE_BELOW: 'price_below',
  CHANGE_ABOVE: 'change_above',
  SIGNAL: 'signal',
} as const;
export const AlertStatusValues = { ACTIVE: 'active', TRIGGERED: 'triggered', EXPIRED: 'expired' } as const;
export const PredictionSignalValues = { HOT: 'hot', WATCH: 'watch', RISING: 'rising', WAIT: 'wait' } as const;
export const WebhookEventTypeValues = {
  PRICE_ALERT_TRIGGERED: 'price_alert.triggered',
  PRICE_ALERT_EXPIRED: 'price_alert.expired',
  WEBHOOK_TEST: 'webhook.test',
} as const;
export const WebhookDeliveryStatusValues = { PENDING: 'pending', DELIVERED: 'delivered', FAILED: 'failed' } as const;

/** GraphQL name of an internal enum value, e.g. ('5m', IntervalValues) -> 'M5'. */
export function graphqlEnumName<T extends Record<string, string>>(values: T, internal: string): keyof T | undefined {
  return (Object.keys(values) as (keyof T)[]).find((k) => values[k] === internal);
}
export const MarketRelationValues = { SAME: 'same', INVERSE: 'inverse', RELATED: 'related', UNRESOLVED: 'unresolved' } as const;
export const LinkDeciderValues = { RULES: 'rules', OPERATOR: 'operator', MODEL: 'model' } as const;
/** Seen from the market asked about: its link's evidence is written with that market as `a`. */
export const LinkImplicationValues = { THIS_IMPLIES_OTHER: 'a_implies_b', OTHER_IMPLIES_THIS: 'b_implies_a' } as const;
export const PriceComparatorValues = { ABOVE: 'above', AT_OR_ABOVE: 'at_or_above', BELOW: 'below', AT_OR_BELOW: 'at_or_below', BETWEEN: 'between' } as const;
export const PriceClaimKindValues = { AT: 'at', CLOSE: 'close', TOUCH: 'touch' } as const;
export const SpreadCrossingValues = { UP: 'up', DOWN: 'down' } as const;
