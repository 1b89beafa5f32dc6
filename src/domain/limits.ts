/** Parameter bounds of D6, shared by the REST parameter schemas and the GraphQL resolvers. */
export const MARKETS_PAGE = { min: 1, max: 500, default: 100 } as const;
export const BRIEF_LIMIT = { min: 1, max: 100, default: 10 } as const;
export const BRIEF_MAX_SYMBOLS = 100;
/** Variant B: the most active markets answered (D8), and the alerts limit of D6. */
export const TOP_MARKETS = 50;
export const MOVEMENT_ALERTS_LIMIT = { min: 1, max: 100, default: 20 } as const;
/** Chart pages: candles per market (the store keeps 500 of each interval), and a budget per operation across markets. */
export const CANDLES_PAGE = { min: 1, max: 500, default: 100 } as const;
export const CANDLES_PER_OPERATION = 20_000;
/** Hours of a prediction market's chart (the store keeps three days of hourly history). */
export const HISTORY_HOURS = { min: 1, max: 72, default: 24 } as const;
/** Days of usage an account may ask for at once (`viewer.usage`), the records' default retention. */
export const USAGE_DAYS = { min: 1, max: 400, default: 30 } as const;
