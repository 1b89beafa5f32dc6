/**
 * The chart queries read an index range, not the table, on both engines: a page of 500 candles
 * walks the candles' key (symbol, interval, open time) backwards with no sort, and a prediction
 * market's chart its history key. Checked on the query plan (EXPLAIN), not on timings; the
 * measured server time is printed.
 */
import { type RawBuilder, sql } from 'kysely';
import { describeOnEachEngine } from '../support/store-suite.js';

const HOUR = 3_600_000;
const SYMBOLS = ['AAA/USD', 'BBB/USD', 'CCC/USD', 'DDD/USD', 'EEE/USD'];
const CANDLES_EACH = 4_000;

describeOnEachEngine('chart queries', (suite) => {
  beforeAll(async () => {
    if (!suite.enabled) return;
    const { store } = suite;
    await store.markets.upsertMarkets(
      SYMBOLS.map((symbol) => ({ symbol, name: symbol, type: 'crypto' as const, source: 'demo', staleAfterMs: 60_000, halted: false })),
    );
    for (const symbol of SYMBOLS) {
      await store.markets.upsertCandles(
        Array.from({ length: CANDLES_EACH }, (_, i) => ({
          symbol,
          interval: '1h' as const,
          openTime: i * HOUR,
          open: 1,
          high: 2,
          low: 0.5,
          close: 1.5,
          volume: 10,
        })),
      );
    }
    // 400 markets with three days of hours (the kept history): 28 800 rows.
    const ids = Array.from({ length: 400 }, (_, i) => `demo:${i}`);
    await store.prediction.upsertMarkets(ids.map((id) => ({ id, source: 'demo', question: id, url: 'https://example.com', topic: null })));
    await store.prediction.recordObservations(
      ids.flatMap((marketId) => Array.from({ length: 72 }, (_, h) => ({ marketId, prob: 0.5, volume24h: 100, observedAt: h * HOUR + 1 }))),
    );
    // Only the two tables read here: a bare ANALYZE walks every schema of the shared test database (over 800 ms once).
    if (suite.engine.name === 'postgres') await sql`analyze candles, prediction_history`.execute(store.connection.db);
  });

  async function plan(query: RawBuilder<unknown>): Promise<string> {
    const { db, engine } = suite.store.connection;
    const explain = engine === 'sqlite' ? sql`explain query plan ${query}` : sql`explain (analyze, format text) ${query}`;
    const rows = (await explain.execute(db)).rows as Record<string, unknown>[];
    return rows.map((r) => String(r.detail ?? r['QUERY PLAN'])).join('\n');
  }

  suite.maybe('a page of 500 candles is a backward walk of the candles key, without a sort', async () => {
    const before = 3_000 * HOUR;
    const text = await plan(
      sql`select * from candles where symbol = ${'CCC/USD'} and interval = ${'1h'} and open_time < ${before} order by open_time desc limit 500`,
    );
    console.log(`${suite.engine.name}: a page of 500 candles\n${text}`);
    if (suite.store.connection.engine === 'sqlite') {
      expect(text).toMatch(/SEARCH candles USING (INDEX|PRIMARY KEY)/);
      expect(text).not.toMatch(/TEMP B-TREE/);
    } else {
      expect(text).toMatch(/Index (Only )?Scan Backward using candles_pk/);
      expect(text).not.toMatch(/Sort|Seq Scan/);
    }
    const page = (await suite.store.markets.candlePages(['CCC/USD'], '1h', 500, before)).get('CCC/USD')!;
    expect(page.map((c) => c.openTime)).toEqual(Array.from({ length: 500 }, (_, i) => (2_500 + i) * HOUR));
  });

  suite.maybe("a prediction market's chart reads its history key", async () => {
    const text = await plan(
      sql`select market_id, hour_start, prob, volume_24h from prediction_history where market_id in (${'demo:1'}, ${'demo:3'}) and hour_start >= ${48 * HOUR} order by market_id, hour_start`,
    );
    console.log(`${suite.engine.name}: a prediction chart\n${text}`);
    if (suite.store.connection.engine === 'sqlite') expect(text).toMatch(/SEARCH prediction_history USING (INDEX|PRIMARY KEY)/);
    else expect(text).toMatch(/Index (Only )?Scan using prediction_history_pk|Bitmap Index Scan on prediction_history_pk/);
    const charts = await suite.store.prediction.chartHistory(['demo:1', 'demo:3'], 48 * HOUR);
    expect(charts.get('demo:1')!.map((p) => p.hourStart)).toEqual(Array.from({ length: 24 }, (_, i) => (48 + i) * HOUR));
    expect(charts.get('demo:3')![0]).toEqual({ hourStart: 48 * HOUR, prob: 0.5, volume24h: 100 });
  });
});
