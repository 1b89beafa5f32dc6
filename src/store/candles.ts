/** Candles per symbol and interval (variant A): written, read for charts and briefs, pruned. */
import type { Kysely } from 'kysely';
import type { Candle, Interval } from '../domain/market.js';
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
export function createCandles(db: Kysely<Database>) {
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
