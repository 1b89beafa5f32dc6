/**
 * Binance spot: 24-hour tickers for the quote, klines for the candles of every interval. Pairs are
 * quoted in USDT, and the symbol says so (`BTC/USDT`): a stablecoin is not the dollar.
 */
import { z } from 'zod';
import { INTERVALS, type Candle, type Interval, type MarketMeta, type Quote } from '../../domain/market.js';
import type { Connector, MarketDataBatch } from '../connector.js';
import { parseEnvelope, parseItems } from '../validate.js';
import { decimal, nonNegativeDecimal, positiveDecimal } from './decimal.js';
import { BACKFILL_CANDLES, marketDataBatch, RECENT_CANDLES, settleRequests } from './market-data-common.js';

const BINANCE_SOURCE = 'binance';

const BINANCE_PAIRS: Record<string, string> = {
  BTCUSDT: 'Bitcoin / Tether',
  ETHUSDT: 'Ether / Tether',
  SOLUSDT: 'Solana / Tether',
  BNBUSDT: 'BNB / Tether',
  XRPUSDT: 'XRP / Tether',
  ADAUSDT: 'Cardano / Tether',
  DOGEUSDT: 'Dogecoin / Tether',
  AVAXUSDT: 'Avalanche / Tether',
  LINKUSDT: 'Chainlink / Tether',
  DOTUSDT: 'Polkadot / Tether',
};

/** `BTCUSDT` -> `BTC/USDT`. */
const binanceSymbol = (pair: string): string => `${pair.slice(0, -4)}/${pair.slice(-4)}`;

const Ticker = z.object({
  symbol: z.string(),
  lastPrice: positiveDecimal,
  priceChangePercent: decimal,
  volume: nonNegativeDecimal,
  closeTime: z.number().int(),
});

const Kline = z.tuple([z.number().int(), positiveDecimal, positiveDecimal, positiveDecimal, positiveDecimal, nonNegativeDecimal]).rest(z.unknown());

export function createBinanceConnector(pairs: readonly string[] = Object.keys(BINANCE_PAIRS)): Connector<MarketDataBatch> & { symbols: string[] } {
  const staleAfterMs = 5 * 60_000;
  const metas: MarketMeta[] = pairs.map((pair) => ({
    symbol: binanceSymbol(pair),
    name: BINANCE_PAIRS[pair] ?? binanceSymbol(pair),
    type: 'crypto',
    source: BINANCE_SOURCE,
    staleAfterMs,
    halted: false,
  }));

  return {
    source: BINANCE_SOURCE,
    kind: 'market-data',
    pollMs: 30_000,
    defaultBaseUrl: 'https://api.binance.com',
    symbols: metas.map((m) => m.symbol),
    async poll({ http, backfill }) {
      const tickerBody = await http.json(`/api/v3/ticker/24hr?symbols=${encodeURIComponent(JSON.stringify(pairs))}`);
      const wanted = new Set(pairs);
      // Only the tracked pairs are validated: an untracked (delisted) symbol is not a problem of ours.
      const listed = parseEnvelope(BINANCE_SOURCE, z.array(z.unknown()), tickerBody, 'the ticker list');
      const tickers = parseItems(
        Ticker,
        listed.filter((t) => wanted.has((t as { symbol?: unknown } | null)?.symbol as string)),
      );
      const quotes: Quote[] = tickers.items
        .filter((t) => wanted.has(t.symbol))
        .map((t) => ({ symbol: binanceSymbol(t.symbol), price: t.lastPrice, change24h: t.priceChangePercent, volume24h: t.volume, observedAt: t.closeTime }));

      const limit = backfill ? BACKFILL_CANDLES : RECENT_CANDLES;
      const requests = pairs.flatMap((pair) => INTERVALS.map((interval) => ({ pair, interval })));
      const klines = await settleRequests(
        requests,
        4,
        (r) => `${r.pair} ${r.interval}`,
        async ({ pair, interval }: { pair: string; interval: Interval }) => {
          const body = await http.json(`/api/v3/klines?symbol=${pair}&interval=${interval}&limit=${limit}`);
          const rows = parseItems(Kline, parseEnvelope(BINANCE_SOURCE, z.array(z.unknown()), body, 'the kline list'));
          const candles = rows.items.map(
            ([openTime, open, high, low, close, volume]): Candle => ({ symbol: binanceSymbol(pair), interval, openTime, open, high, low, close, volume }),
          );
          return { candles, problems: rows.problems };
        },
      );
      const candles = klines.values.flatMap((v) => v.candles);
      return marketDataBatch(metas, quotes, candles, tickers.problems, klines.problems, ...klines.values.map((v) => v.problems));
    },
  };
}
