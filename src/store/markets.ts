/** Market metadata, latest quotes and candles (variant A). */
import type { Kysely } from 'kysely';
import type { Candle, Interval, MarketMeta, MarketType, Quote } from '../domain/market.js';
import { chunks } from './batches.js';
import type { CandlesTable, Database } from './tables.js';

function toCandle(r: CandlesTable): Candle {
  return {
    symbol: r.symbol,
    interval: r.interval as Interval,
    openTime: r.open_time,
    open: r.open,
    high: r.high,
    low: r.low,
    close: r.close,
    volume: r.volume,
  };
}

export function createMarketRepository(db: Kysely<Database>) {
  /**
   * A page of each symbol's candles for a chart: the `limit` latest opened before `before` (or the
   * latest), oldest first. One index range read per symbol (the key is symbol, interval, open time).
   */
  async function candlePages(symbols: readonly string[], interval: Interval, limit: number, before: number | null): Promise<Map<string, Candle[]>> {
    const pages = await Promise.all(
      symbols.map(async (symbol) => {
        let query = db.selectFrom('candles').selectAll().where('symbol', '=', symbol).where('interval', '=', interval);
        if (before !== null) query = query.where('open_time', '<', before);
        const rows = await query.orderBy('open_time', 'desc').limit(limit).execute();
        return [symbol, rows.reverse().map(toCandle)] as const;
      }),
    );
    return new Map(pages);
  }

  return {
    async upsertMarkets(markets: readonly MarketMeta[]): Promise<void> {
      for (const batch of chunks(markets)) {
        await db
          .insertInto('markets')
          .values(
            batch.map((m) => ({
              symbol: m.symbol,
              name: m.name,
              type: m.type,
              source: m.source,
              stale_after_ms: m.staleAfterMs,
              halted: m.halted ? 1 : 0,
            })),
          )
          .onConflict((oc) =>
            oc.column('symbol').doUpdateSet((eb) => ({
              name: eb.ref('excluded.name'),
              type: eb.ref('excluded.type'),
              source: eb.ref('excluded.source'),
              stale_after_ms: eb.ref('excluded.stale_after_ms'),
              halted: eb.ref('excluded.halted'),
            })),
          )
          .execute();
      }
    },

    async listMarkets(): Promise<MarketMeta[]> {
      const rows = await db.selectFrom('markets').selectAll().orderBy('symbol').execute();
      return rows.map((r) => ({
        symbol: r.symbol,
        name: r.name,
        type: r.type as MarketType,
        source: r.source,
        staleAfterMs: r.stale_after_ms,
        halted: r.halted === 1,
      }));
    },

    /** Keeps the newest observation per symbol: an out-of-order quote never overwrites a newer one. */
    async upsertQuotes(quotes: readonly Quote[]): Promise<void> {
      for (const batch of chunks(quotes)) {
        await db
          .insertInto('quotes')
          .values(
            batch.map((q) => ({
              symbol: q.symbol,
              price: q.price,
              change_24h: q.change24h,
              volume_24h: q.volume24h,
              observed_at: q.observedAt,
            })),
          )
          .onConflict((oc) =>
            oc
              .column('symbol')
              .doUpdateSet((eb) => ({
                price: eb.ref('excluded.price'),
                change_24h: eb.ref('excluded.change_24h'),
                volume_24h: eb.ref('excluded.volume_24h'),
                observed_at: eb.ref('excluded.observed_at'),
              }))
              .where('quotes.observed_at', '<=', (eb) => eb.ref('excluded.observed_at')),
          )
          .execute();
      }
    },

    async listQuotes(): Promise<Quote[]> {
      const rows = await db.selectFrom('quotes').selectAll().execute();
      return rows.map((r) => ({
        symbol: r.symbol,
        price: r.price,
        change24h: r.change_24h,
        volume24h: r.volume_24h,
        observedAt: r.observed_at,
      }));
    },

    async upsertCandles(candles: readonly Candle[]): Promise<void> {
      for (const batch of chunks(candles)) {
        await db
          .insertInto('candles')
          .values(
            batch.map((c) => ({
              symbol: c.symbol,
              interval: c.interval,
              open_time: c.openTime,
              open: c.open,
              high: c.high,
              low: c.low,
              close: c.close,
              volume: c.volume,
            })),
          )
          .onConflict((oc) =>
            oc.columns(['symbol', 'interval', 'open_time']).doUpdateSet((eb) => ({
              open: eb.ref('excluded.open'),
              high: eb.ref('excluded.high'),
              low: eb.ref('excluded.low'),
              close: eb.ref('excluded.close'),
              volume: eb.ref('excluded.volume'),
            })),
          )
          .execute();
      }
    },

    /** The latest `count` candles of one symbol and interval, oldest first. */
    async recentCandles(symbol: string, interval: Interval, count: number): Promise<Candle[]> {
      return (await candlePages([symbol], interval, count, null)).get(symbol) ?? [];
    },

    candlePages,

    /** Candles of several symbols of one interval opened at or after `since`, oldest first. */
    async candlesSince(symbols: readonly string[], interval: Interval, since: number): Promise<Candle[]> {
      if (symbols.length === 0) return [];
      const rows = await db
        .selectFrom('candles')
        .selectAll()
        .where('symbol', 'in', symbols)
        .where('interval', '=', interval)
        .where('open_time', '>=', since)
        .orderBy('symbol')
        .orderBy('open_time')
        .execute();
      return rows.map(toCandle);
    },

    /** Drops candles older than `before` so the history stays bounded. */
    async pruneCandles(interval: Interval, before: number): Promise<void> {
      await db.deleteFrom('candles').where('interval', '=', interval).where('open_time', '<', before).execute();
    },
  };
}

export type MarketRepository = ReturnType<typeof createMarketRepository>;
