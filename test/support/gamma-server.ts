/**
 * A loopback Polymarket Gamma `/markets` that answers a recorded market list the way Gamma does:
 * the `active` and `closed` filters, `order` by a numeric field (markets without it last) with
 * `ascending`, `limit` capped at the server's page cap and `offset`. Swap the list mid-test to
 * replay a later snapshot.
 */
import { startUpstreamServer, type UpstreamServer } from './upstream-server.js';

/** A market as Gamma sends it; only the filtered and ordered fields are read. */
type GammaMarket = object;
const field = (m: GammaMarket, name: string): unknown => (m as Record<string, unknown>)[name];

export interface GammaServer extends UpstreamServer {
  /** The list served from now on (a later snapshot). */
  setMarkets(markets: GammaMarket[]): void;
}

/** Gamma's own cap on `limit`. */
export const GAMMA_PAGE_CAP = 500;

const filterFlag = (url: URL, name: string, market: GammaMarket): boolean => {
  const wanted = url.searchParams.get(name);
  return wanted === null || field(market, name) === (wanted === 'true');
};

function answer(markets: GammaMarket[], url: URL, pageCap: number): GammaMarket[] {
  let list = markets.filter((m) => filterFlag(url, 'active', m) && filterFlag(url, 'closed', m));
  const order = url.searchParams.get('order');
  if (order) {
    const ascending = url.searchParams.get('ascending') === 'true';
    const value = (m: GammaMarket) => {
      const v = field(m, order);
      return typeof v === 'number' ? v : undefined;
    };
    list = [...list].sort((a, b) => {
      const [x, y] = [value(a), value(b)];
      if (x === undefined || y === undefined) return x === undefined ? (y === undefined ? 0 : 1) : -1;
      return ascending ? x - y : y - x;
    });
  }
  const offset = Number(url.searchParams.get('offset') ?? 0);
  const limit = Math.min(Number(url.searchParams.get('limit') ?? pageCap), pageCap);
  return list.slice(offset, offset + limit);
}

export async function startGammaServer(initial: GammaMarket[], { pageCap = GAMMA_PAGE_CAP } = {}): Promise<GammaServer> {
  let markets = initial;
  const server = await startUpstreamServer([{ path: '/markets', reply: (url) => ({ body: JSON.stringify(answer(markets, url, pageCap)) }) }]);
  return {
    ...server,
    setMarkets(next) {
      markets = next;
    },
  };
}
