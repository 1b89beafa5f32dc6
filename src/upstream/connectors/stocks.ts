/**
 * Daily stock bars as CSV (`Date,Open,High,Low,Close,Volume`, the format of Stooq's download), one
 * request per ticker. Stooq answers some failures as plain text with a 200 ("No data", "Exceeded
 * the daily hits limit"): those are failures, not empty data.
 */
import type { Candle, MarketMeta, Quote } from '../../domain/market.js';
import type { Connector, MarketDataBatch } from '../connector.js';
import { UpstreamError } from '../errors.js';
import type { ItemProblems } from '../validate.js';
import { parseCsv, utcDay } from './csv.js';
import { decimalCell } from './decimal.js';
import { marketDataBatch, percentChange, settleRequests } from './market-data-common.js';
import { DAY_MS, HOUR_MS } from '../../domain/time.js';

const STOCKS_SOURCE = 'stocks';
/** US markets close at 16:00 New York, 21:00 UTC in winter: a daily bar is stamped then. */
const CLOSE_MS = 21 * HOUR_MS;
const BACKFILL_DAYS = 300;
const RECENT_DAYS = 5;
const COLUMNS = ['Date', 'Open', 'High', 'Low', 'Close', 'Volume'];

const STOCK_TICKERS: Record<string, string> = {
  AAPL: 'Apple Inc.',
  MSFT: 'Microsoft Corporation',
  NVDA: 'NVIDIA Corporation',
  TSLA: 'Tesla, Inc.',
  AMZN: 'Amazon.com, Inc.',
  GOOGL: 'Alphabet Inc.',
  META: 'Meta Platforms, Inc.',
};

/**
 * Reading, not rounding for display: the recordings carry float32 noise (193.5800018310547 for
 * 193.58), and no exchange quotes a share below a hundredth of a cent, so 4 decimals recover the
 * price as traded. Changes are computed from these values; the API rounds what it shows once.
 */
const price4 = (n: number): number => Math.round(n * 10_000) / 10_000;

function parseDailyBars(ticker: string, text: string): { candles: Candle[]; problems: ItemProblems } {
  const { header, rows } = parseCsv(text);
  if (COLUMNS.some((c, i) => header[i] !== c)) {
    const failure = header.length <= 1 ? 'parse' : 'schema';
    throw new UpstreamError(STOCKS_SOURCE, failure, `${ticker}: ${failure === 'parse' ? 'answered no CSV' : 'the CSV columns changed'}`);
  }
  const symbol = `${ticker}/USD`;
  const problems: ItemProblems = { invalid: 0, examples: [] };
  const candles: Candle[] = [];
  for (const { line, cells } of rows) {
    const day = utcDay(cells[0] ?? '');
    const [open, high, low, close, volume] = cells.slice(1, 6).map(decimalCell);
    const prices = [open, high, low, close].filter((n): n is number => n !== undefined && n > 0);
    if (day === undefined || prices.length < 4 || volume === undefined || volume < 0) {
      problems.invalid++;
      if (problems.examples.length < 3) problems.examples.push(`${ticker} line ${line}: not a valid bar`);
      continue;
    }
    const [o, h, l, c] = prices.map(price4) as [number, number, number, number];
    candles.push({ symbol, interval: '1d', openTime: day, open: o, high: h, low: l, close: c, volume: Math.round(volume) });
  }
  candles.sort((a, b) => a.openTime - b.openTime);
  return { candles, problems };
}

function dailyQuote(candles: readonly Candle[], now: number): Quote | undefined {
  const last = candles.at(-1);
  if (!last) return undefined;
  const previous = candles.at(-2);
  return {
    symbol: last.symbol,
    price: last.close,
    change24h: previous ? percentChange(previous.close, last.close) : 0,
    volume24h: last.volume,
    observedAt: Math.min(now, last.openTime + CLOSE_MS),
  };
}

export function createStocksConnector(tickers: readonly string[] = Object.keys(STOCK_TICKERS)): Connector<MarketDataBatch> & { symbols: string[] } {
  const metas: MarketMeta[] = tickers.map((t) => ({
    symbol: `${t}/USD`,
    name: STOCK_TICKERS[t] ?? t,
    type: 'stocks',
    source: STOCKS_SOURCE,
    staleAfterMs: 4 * DAY_MS,
    halted: false,
  }));
  return {
    source: STOCKS_SOURCE,
    kind: 'market-data',
    pollMs: HOUR_MS,
    defaultBaseUrl: 'https://stooq.com',
    symbols: metas.map((m) => m.symbol),
    async poll({ http, backfill, now }) {
      const answers = await settleRequests(
        tickers,
        3,
        (t) => t,
        async (ticker) => {
          const text = await http.text(`/q/d/l/?s=${ticker.toLowerCase()}.us&i=d`);
          // Stooq answers its daily limit as text with a 200: a rate limit all the same, so the source is held.
          if (/exceeded the daily hits limit/i.test(text)) throw http.rateLimited(`${ticker}: daily hits limit exceeded`);
          return parseDailyBars(ticker, text);
        },
      );
      const keep = backfill ? BACKFILL_DAYS : RECENT_DAYS;
      const quotes = answers.values.flatMap((a) => {
        const q = dailyQuote(a.candles, now);
        return q ? [q] : [];
      });
      const candles = answers.values.flatMap((a) => a.candles.slice(-keep));
      return marketDataBatch(metas, quotes, candles, answers.problems, ...answers.values.map((a) => a.problems));
    },
  };
}
