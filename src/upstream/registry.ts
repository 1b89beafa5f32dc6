/** From the FEEDS selection to connector instances; the one place that knows every connector. */
import type { Connector } from './connector.js';
import type { Paging } from './connectors/pages.js';
import { createBinanceConnector } from './connectors/binance.js';
import { createEcbConnector } from './connectors/ecb.js';
import { createKalshiConnector } from './connectors/kalshi.js';
import { createKrakenConnector } from './connectors/kraken.js';
import { createManifoldConnector } from './connectors/manifold.js';
import { createPolymarketConnector } from './connectors/polymarket.js';
import { createStocksConnector } from './connectors/stocks.js';
import type { LiveSource } from './sources.js';

/** A market-data connector also says upfront which symbols it serves (the demo leaves them out). */
type AnyConnector = Connector & { readonly symbols?: readonly string[] };

/** What the connectors take from configuration: tracked bounds, Kalshi's selection. */
interface ConnectorSettings {
  sources: Partial<Record<LiveSource, { maxMarkets?: number | undefined }>>;
  kalshi?: { series: readonly string[]; events: readonly string[] };
  /** A fixed wait between the pages of one poll; unset: spread over the interval. */
  pageGapMs?: number | undefined;
}

const FACTORIES: Record<LiveSource, (settings: ConnectorSettings) => AnyConnector> = {
  binance: () => createBinanceConnector(),
  kraken: () => createKrakenConnector(),
  ecb: () => createEcbConnector(),
  stocks: () => createStocksConnector(),
  polymarket: (settings) => createPolymarketConnector(paging(settings, 'polymarket')),
  kalshi: (settings) => createKalshiConnector({ ...settings.kalshi, ...paging(settings, 'kalshi') }),
  manifold: (settings) => createManifoldConnector(paging(settings, 'manifold')),
};

/** The source's bound and the page gap, where configured (the connectors' defaults otherwise). */
function paging({ sources, pageGapMs }: ConnectorSettings, source: LiveSource): Paging {
  const maxMarkets = sources[source]?.maxMarkets;
  return { ...(maxMarkets === undefined ? {} : { maxMarkets }), pageGapMs };
}

export function createConnectors(sources: readonly LiveSource[], settings: ConnectorSettings): AnyConnector[] {
  return sources.map((source) => FACTORIES[source](settings));
}

/** Every symbol the given market-data connectors serve. */
export function liveSymbols(connectors: readonly AnyConnector[]): Set<string> {
  return new Set(connectors.flatMap((c) => c.symbols ?? []));
}
