/** The names FEEDS accepts; kept apart from the connectors so configuration can validate without loading them. */
const MARKET_DATA_SOURCES = ['binance', 'kraken', 'ecb', 'stocks'] as const;
export const PREDICTION_SOURCES = ['polymarket', 'kalshi', 'manifold'] as const;
export const LIVE_SOURCES = [...MARKET_DATA_SOURCES, ...PREDICTION_SOURCES] as const;
export type LiveSource = (typeof LIVE_SOURCES)[number];

/** How the live sources are reached and paced (from the `<SOURCE>_*` and `UPSTREAM_*` settings). */
export interface UpstreamSettings {
  timeoutMs: number;
  sources: Record<LiveSource, { baseUrl?: string | undefined; pollMs?: number | undefined; maxMarkets?: number | undefined }>;
  /** Kalshi series and event tickers to track whole; none: Kalshi's open list up to the bound. */
  kalshi: { series: string[]; events: string[] };
  pageGapMs: number | undefined;
}

export interface FeedSelection {
  demo: boolean;
  live: LiveSource[];
}

/** `demo` (the default), `live` (every real source), or a comma list of source names, `demo` allowed among them. */
export function parseFeeds(value: string): FeedSelection | { error: string } {
  const names = value
    .split(',')
    .map((f) => f.trim().toLowerCase())
    .filter(Boolean);
  if (names.length === 0) return { demo: true, live: [] };
  const unknown = names.filter((n) => n !== 'demo' && n !== 'live' && !(LIVE_SOURCES as readonly string[]).includes(n));
  if (unknown.length > 0) {
    return { error: `unknown feed ${unknown.map((n) => `"${n}"`).join(', ')}; use demo, live, or some of ${LIVE_SOURCES.join(', ')}` };
  }
  const live = names.includes('live') ? [...LIVE_SOURCES] : LIVE_SOURCES.filter((s) => names.includes(s));
  return { demo: names.includes('demo'), live };
}
