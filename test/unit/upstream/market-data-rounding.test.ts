/**
 * One rounding, for every market-data connector: what a client is shown (the price to ten
 * significant digits, `change_24h` to two decimals, the volume) equals the exact value of the
 * upstream's own numbers rounded once, by the resolvers every transport goes through. Inputs are
 * generated on the upstreams' decimal grids; the expected values are computed here in integers
 * (BigInt), never with the code under test.
 */
import fc from 'fast-check';
import type { MarketMeta, Quote } from '../../../src/domain/market.js';
import { marketDataResolvers } from '../../../src/graphql/resolvers/market-data.js';
import { createBinanceConnector } from '../../../src/upstream/connectors/binance.js';
import { createEcbConnector } from '../../../src/upstream/connectors/ecb.js';
import { createKrakenConnector } from '../../../src/upstream/connectors/kraken.js';
import { createStocksConnector } from '../../../src/upstream/connectors/stocks.js';
import { pollConnector } from '../../support/connectors.js';

const RUNS = 40;
const NOW = Date.UTC(2026, 10, 23, 6, 0);

/** n / d to `places` decimals, halves away from zero, exactly. */
function exactRound(n: bigint, d: bigint, places: number): number {
  const negative = n < 0n !== d < 0n;
  const [an, ad] = [n < 0n ? -n : n, d < 0n ? -d : d];
  const magnitude = (2n * an * 10n ** BigInt(places) + ad) / (2n * ad);
  return Number(`${negative ? '-' : ''}${magnitude}e-${places}`) || 0;
}
/** n / d (both > 0) to ten significant digits, as the API shows prices. */
function exactPrice(n: bigint, d: bigint): number {
  let integerDigits = (n / d).toString().length;
  if (n < d) {
    let k = 1;
    while (n * 10n ** BigInt(k) < d) k++;
    integerDigits = 1 - k; // 0.05: k = 2, -1 integer digits
  }
  return exactRound(n, d, Math.min(40, Math.max(0, 10 - integerDigits)));
}
/** A positive decimal on a grid of `places` decimals: as text, and as an integer count of 10^-places. */
const decimalOn = (places: number, min: number, max: number) =>
  fc.bigInt({ min: BigInt(min), max: BigInt(max) }).map((units) => ({ units, places, text: (Number(units) / 10 ** places).toFixed(places) }));

/** What the resolvers show for a quote: the same functions serve /graphql and the REST facade. */
function shown(quote: Quote) {
  const model = { meta: { symbol: quote.symbol } as MarketMeta, quote, status: 'active' as const };
  const field = (name: 'price' | 'change24h' | 'volume24h') => (marketDataResolvers.AssetMarket as Record<string, (parent: unknown) => unknown>)[name]!(model);
  return { price: field('price'), change24h: field('change24h'), volume24h: field('volume24h') };
}

it('Binance: lastPrice, priceChangePercent and volume as sent, rounded once', async () => {
  await fc.assert(
    fc.asyncProperty(decimalOn(8, 1, 99_999_999_999_999), decimalOn(3, -99_999, 99_999), decimalOn(8, 0, 99_999_999_999), async (price, change, volume) => {
      const ticker = { symbol: 'BTCUSDT', lastPrice: price.text, priceChangePercent: change.text, volume: volume.text, closeTime: NOW };
      const { batch } = await pollConnector(
        createBinanceConnector(['BTCUSDT']),
        [
          { path: '/api/v3/ticker/24hr', reply: { body: JSON.stringify([ticker]) } },
          { path: '/api/v3/klines', reply: { body: '[]' } },
        ],
        { now: NOW },
      );
      expect(shown(batch.quotes[0]!)).toEqual({
        price: exactPrice(price.units, 10n ** 8n),
        change24h: exactRound(change.units, 1000n, 2),
        volume24h: Number(volume.text),
      });
    }),
    { numRuns: RUNS, endOnFailure: true }, // a failure is reported as found: shrinking through loopback polls takes minutes
  );
});

it('ECB: a cross and its change from two days of fixings, both computed unrounded and rounded once', async () => {
  // As the ECB writes them (0.01 .. 999.9999, 4 decimals), and the next day within 20 % of the day before.
  const rate = decimalOn(4, 100, 9_999_999);
  const nextDay = (day: { units: bigint }) =>
    fc.integer({ min: -2_000, max: 2_000 }).map((perTenThousand) => {
      const units = day.units + (day.units * BigInt(perTenThousand)) / 10_000n;
      return { units: units > 0n ? units : 1n, text: (Number(units > 0n ? units : 1n) / 10_000).toFixed(4) };
    });
  const days = fc.tuple(rate, rate).chain(([usd1, jpy1]) => fc.tuple(fc.constant(usd1), fc.constant(jpy1), nextDay(usd1), nextDay(jpy1)));
  await fc.assert(
    fc.asyncProperty(days, async ([usd1, jpy1, usd2, jpy2]) => {
      const csv = ['Date,USD,JPY,', `2026-11-24,${usd2.text},${jpy2.text},`, `2026-11-23,${usd1.text},${jpy1.text},`].join('\n');
      const { batch } = await pollConnector(createEcbConnector(), [{ path: '/eurofxref-hist.zip', reply: { body: csv, contentType: 'text/csv' } }], {
        now: NOW + 2 * 86_400_000,
      });
      const quote = batch.quotes.find((q) => q.symbol === 'USD/JPY')!;
      // USD/JPY = JPY / USD; change = (jpy2/usd2) / (jpy1/usd1) - 1 = (jpy2 usd1 - jpy1 usd2) / (jpy1 usd2).
      expect(shown(quote)).toEqual({
        price: exactPrice(jpy2.units, usd2.units),
        change24h: exactRound((jpy2.units * usd1.units - jpy1.units * usd2.units) * 100n, jpy1.units * usd2.units, 2),
        volume24h: 0,
      });
    }),
    { numRuns: RUNS, endOnFailure: true }, // a failure is reported as found: shrinking through loopback polls takes minutes
  );
});

it('Kraken: the change from the close a day ago and the day’s summed volume, rounded once', async () => {
  const T = Math.floor(NOW / 1000) - 600; // the last 5-minute candle
  await fc.assert(
    fc.asyncProperty(
      decimalOn(1, 1, 9_999_999),
      decimalOn(1, 1, 9_999_999),
      decimalOn(8, 0, 9_999_999_999),
      decimalOn(8, 0, 9_999_999_999),
      async (reference, last, v1, v2) => {
        const row = (time: number, close: string, volume: string) => [time, close, close, close, close, close, volume, 1];
        const answer = (rows: unknown[]) => ({ body: JSON.stringify({ error: [], result: { XXBTZUSD: rows, last: T } }) });
        const { batch } = await pollConnector(
          createKrakenConnector(['XBTUSD']),
          [
            { path: '/0/public/OHLC', query: { interval: '5' }, reply: answer([row(T, last.text, '1.0')]) },
            // One hourly candle a day before the last one (the reference), two within the last day (the volume).
            {
              path: '/0/public/OHLC',
              query: { interval: '60' },
              reply: answer([row(T - 86_400 - 3_600, reference.text, '5.0'), row(T - 7_200, last.text, v1.text), row(T - 3_600, last.text, v2.text)]),
            },
            { path: '/0/public/OHLC', reply: answer([]) },
          ],
          { now: NOW },
        );
        expect(shown(batch.quotes[0]!)).toEqual({
          price: exactPrice(last.units, 10n),
          change24h: exactRound((last.units - reference.units) * 100n, reference.units, 2),
          volume24h: exactRound(v1.units + v2.units, 10n ** 8n, 8),
        });
      },
    ),
    { numRuns: RUNS, endOnFailure: true }, // a failure is reported as found: shrinking through loopback polls takes minutes
  );
});

it('Stocks: the change between the last two daily closes, rounded once', async () => {
  await fc.assert(
    fc.asyncProperty(decimalOn(2, 1, 99_999_999), decimalOn(2, 1, 99_999_999), async (previous, last) => {
      const csv = [
        'Date,Open,High,Low,Close,Volume',
        `2026-11-20,${previous.text},${previous.text},${previous.text},${previous.text},1000`,
        `2026-11-23,${last.text},${last.text},${last.text},${last.text},2000`,
      ].join('\n');
      const { batch } = await pollConnector(createStocksConnector(['AAPL']), [{ path: '/q/d/l/', reply: { body: csv, contentType: 'text/csv' } }], {
        now: NOW + 86_400_000,
      });
      expect(shown(batch.quotes[0]!)).toEqual({
        price: exactPrice(last.units, 100n),
        change24h: exactRound((last.units - previous.units) * 100n, previous.units, 2),
        volume24h: 2000,
      });
    }),
    { numRuns: RUNS, endOnFailure: true }, // a failure is reported as found: shrinking through loopback polls takes minutes
  );
});
