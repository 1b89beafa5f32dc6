/** The demo feed minus the symbols a live source serves, so a live market is never mixed with demo data. */
import type { DemoFeed } from './feed.js';

export function withoutSymbols(feed: DemoFeed, excluded: ReadonlySet<string>): DemoFeed {
  if (excluded.size === 0) return feed;
  const keep = (symbol: string) => !excluded.has(symbol);
  return {
    markets: () => feed.markets().filter((m) => keep(m.symbol)),
    backfill() {
      const b = feed.backfill();
      return { quotes: b.quotes.filter((q) => keep(q.symbol)), candles: b.candles.filter((c) => keep(c.symbol)) };
    },
    tick(now) {
      const b = feed.tick(now);
      return { quotes: b.quotes.filter((q) => keep(q.symbol)), candles: b.candles.filter((c) => keep(c.symbol)) };
    },
  };
}
