/**
 * Markets and latest quotes of variant A, held in memory so requests never wait on the store
 * for them. Ingest writes to the store first and then applies the same rows here; `version`
 * changes with every change, for caches keyed on the data.
 */
import { Listeners } from './listeners.js';
import type { MarketMeta, MarketStatus, MarketType, Quote } from '../domain/market.js';
import type { AssetMarketModel } from './models.js';
import type { MarketRepository } from '../store/markets.js';

interface MarketQuery {
  type?: MarketType | undefined;
  status?: MarketStatus | undefined;
}

export class MarketReadModel {
  private readonly metas = new Map<string, MarketMeta>();
  private readonly quotes = new Map<string, Quote>();
  private sortedSymbols: string[] = [];
  version = 0;
  private readonly quoteChanges = new Listeners<readonly Quote[]>();

  async load(markets: MarketRepository): Promise<void> {
    const [metas, quotes] = await Promise.all([markets.listMarkets(), markets.listQuotes()]);
    this.metas.clear();
    this.quotes.clear();
    this.applyMarkets(metas);
    this.applyQuotes(quotes);
  }

  applyMarkets(metas: readonly MarketMeta[]): void {
    for (const meta of metas) this.metas.set(meta.symbol, meta);
    this.sortedSymbols = [...this.metas.keys()].sort();
    this.version++;
  }

  applyQuotes(quotes: readonly Quote[]): void {
    const changed: Quote[] = [];
    for (const quote of quotes) {
      const current = this.quotes.get(quote.symbol);
      if (!current || current.observedAt <= quote.observedAt) {
        this.quotes.set(quote.symbol, quote);
        if (!current || current.observedAt < quote.observedAt || current.price !== quote.price) changed.push(quote);
      }
    }
    this.version++;
    if (changed.length > 0) this.quoteChanges.emit(changed);
  }

  /** Told of the quotes that changed, after each ingest batch or reload (live subscriptions). */
  onQuotes(listener: (quotes: readonly Quote[]) => void): () => void {
    return this.quoteChanges.add(listener);
  }

  meta(symbol: string): MarketMeta | undefined {
    return this.metas.get(symbol);
  }

  has(symbol: string): boolean {
    return this.metas.has(symbol);
  }

  /** Every known symbol, ascending. */
  symbols(): readonly string[] {
    return this.sortedSymbols;
  }

  quote(symbol: string): Quote | undefined {
    return this.quotes.get(symbol);
  }

  get(symbol: string, now: number): AssetMarketModel | undefined {
    const meta = this.metas.get(symbol);
    return meta && this.model(meta, now);
  }

  /** Matching markets ordered by symbol ascending (D6). */
  list(query: MarketQuery, now: number): AssetMarketModel[] {
    const out: AssetMarketModel[] = [];
    for (const symbol of this.sortedSymbols) {
      const meta = this.metas.get(symbol)!;
      if (query.type && meta.type !== query.type) continue;
      const model = this.model(meta, now);
      if (query.status && model.status !== query.status) continue;
      out.push(model);
    }
    return out;
  }

  private model(meta: MarketMeta, now: number): AssetMarketModel {
    const quote = this.quotes.get(meta.symbol);
    return { meta, quote, status: marketStatus(meta, quote, now) };
  }
}

/** D7: inactive when halted upstream or when no quote is newer than the staleness bound. */
function marketStatus(meta: MarketMeta, quote: Quote | undefined, now: number): MarketStatus {
  if (meta.halted || !quote) return 'inactive';
  return now - quote.observedAt > meta.staleAfterMs ? 'inactive' : 'active';
}
