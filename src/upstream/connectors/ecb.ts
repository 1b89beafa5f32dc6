/**
 * The ECB's euro foreign exchange reference rates (the series Frankfurter serves): one fixing per
 * business day, quoted per 1 EUR. Crosses against the dollar are derived from two EUR rates
 * (GBP/USD = USD per EUR / GBP per EUR). Daily data: only 1d candles, open = high = low = close.
 */
import type { Candle, MarketMeta, Quote } from '../../domain/market.js';
import type { Connector, MarketDataBatch } from '../connector.js';
import { UpstreamError } from '../errors.js';
import type { ItemProblems } from '../validate.js';
import { parseCsv, utcDay } from './csv.js';
import { decimalCell } from './decimal.js';
import { marketDataBatch, percentChange } from './market-data-common.js';
import { DAY_MS, HOUR_MS } from '../../domain/time.js';

const ECB_SOURCE = 'ecb';
/** The ECB publishes around 16:00 CET: a fixing is stamped 15:00 UTC of its date. */
const FIXING_MS = 15 * HOUR_MS;
const BACKFILL_DAYS = 300;
const RECENT_DAYS = 5;

/** A pair as the ratio of two EUR rates; `EUR` stands for 1. */
interface Cross {
  symbol: string;
  name: string;
  /** price = rate(numerator) / rate(denominator) */
  numerator: string;
  denominator: string;
}

const ECB_CROSSES: Cross[] = [
  { symbol: 'EUR/USD', name: 'Euro / US Dollar', numerator: 'USD', denominator: 'EUR' },
  { symbol: 'EUR/GBP', name: 'Euro / British Pound', numerator: 'GBP', denominator: 'EUR' },
  { symbol: 'EUR/JPY', name: 'Euro / Japanese Yen', numerator: 'JPY', denominator: 'EUR' },
  { symbol: 'EUR/CHF', name: 'Euro / Swiss Franc', numerator: 'CHF', denominator: 'EUR' },
  { symbol: 'GBP/USD', name: 'British Pound / US Dollar', numerator: 'USD', denominator: 'GBP' },
  { symbol: 'USD/JPY', name: 'US Dollar / Japanese Yen', numerator: 'JPY', denominator: 'USD' },
  { symbol: 'USD/CHF', name: 'US Dollar / Swiss Franc', numerator: 'CHF', denominator: 'USD' },
  { symbol: 'AUD/USD', name: 'Australian Dollar / US Dollar', numerator: 'USD', denominator: 'AUD' },
  { symbol: 'USD/CAD', name: 'US Dollar / Canadian Dollar', numerator: 'CAD', denominator: 'USD' },
  { symbol: 'NZD/USD', name: 'New Zealand Dollar / US Dollar', numerator: 'USD', denominator: 'NZD' },
  { symbol: 'USD/CNY', name: 'US Dollar / Chinese Yuan', numerator: 'CNY', denominator: 'USD' },
];

interface DailyRates {
  day: number;
  rates: Map<string, number>;
}

/** The CSV, newest first as the ECB writes it; bad rows skipped and counted, `N/A` left out. */
function parseEcbCsv(text: string): { days: DailyRates[]; problems: ItemProblems } {
  const { header, rows } = parseCsv(text);
  if (header[0] !== 'Date' || !header.includes('USD')) {
    throw new UpstreamError(ECB_SOURCE, 'schema', 'the rates CSV changed shape: expected a Date column and a USD column');
  }
  const problems: ItemProblems = { invalid: 0, examples: [] };
  const days: DailyRates[] = [];
  for (const { line, cells } of rows) {
    const day = utcDay(cells[0] ?? '');
    const rates = new Map<string, number>([['EUR', 1]]);
    let bad = day === undefined ? 'bad date' : undefined;
    header.slice(1).forEach((currency, i) => {
      const cell = cells[i + 1] ?? '';
      if (cell === '' || cell === 'N/A') return;
      const rate = decimalCell(cell);
      if (rate !== undefined && rate > 0) rates.set(currency, rate);
      else bad ??= `bad ${currency} rate`;
    });
    if (bad) {
      problems.invalid++;
      if (problems.examples.length < 3) problems.examples.push(`line ${line}: ${bad}`);
      continue;
    }
    days.push({ day: day!, rates });
  }
  days.sort((a, b) => b.day - a.day);
  return { days, problems };
}

/** Unrounded: the change between two days is computed from it, and the API rounds the shown rate once. */
const crossRate = (cross: Cross, rates: Map<string, number>): number | undefined => {
  const n = rates.get(cross.numerator);
  const d = rates.get(cross.denominator);
  return n === undefined || d === undefined ? undefined : n / d;
};

/** Quotes and daily candles of every cross, from rates newest first. */
function ecbBatch(days: readonly DailyRates[], keepDays: number, now: number, problems: ItemProblems): MarketDataBatch {
  const metas: MarketMeta[] = ECB_CROSSES.map((c) => ({
    symbol: c.symbol,
    name: c.name,
    type: 'forex',
    source: ECB_SOURCE,
    // A fixing a business day: weekends and holidays leave gaps of up to four days.
    staleAfterMs: 4 * DAY_MS,
    halted: false,
  }));
  const quotes: Quote[] = [];
  const candles: Candle[] = [];
  for (const cross of ECB_CROSSES) {
    const series = days.flatMap((d) => {
      const rate = crossRate(cross, d.rates);
      return rate === undefined ? [] : [{ day: d.day, rate }];
    });
    const [latest, previous] = series;
    if (latest) {
      quotes.push({
        symbol: cross.symbol,
        price: latest.rate,
        change24h: previous ? percentChange(previous.rate, latest.rate) : 0,
        volume24h: 0,
        observedAt: Math.min(now, latest.day + FIXING_MS),
      });
    }
    for (const { day, rate } of series.slice(0, keepDays).reverse()) {
      candles.push({ symbol: cross.symbol, interval: '1d', openTime: day, open: rate, high: rate, low: rate, close: rate, volume: 0 });
    }
  }
  return marketDataBatch(metas, quotes, candles, problems);
}

/**
 * The ECB serves the history as a zip holding one CSV; proxies and mirrors may serve the CSV itself.
 * The unzipper is loaded with the first archive (1.2 MB of RSS an instance without the ECB feed does without).
 */
async function ecbCsvText(bytes: Uint8Array): Promise<string> {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) {
    const { unzipSync } = await import('fflate');
    let files: Record<string, Uint8Array>;
    try {
      files = unzipSync(bytes);
    } catch {
      throw new UpstreamError(ECB_SOURCE, 'parse', 'the rates archive is not a valid zip');
    }
    const csv = Object.entries(files).find(([name]) => name.toLowerCase().endsWith('.csv'));
    if (!csv) throw new UpstreamError(ECB_SOURCE, 'schema', 'the rates archive holds no CSV');
    return new TextDecoder().decode(csv[1]);
  }
  return new TextDecoder().decode(bytes);
}

export function createEcbConnector(): Connector<MarketDataBatch> & { symbols: string[] } {
  return {
    source: ECB_SOURCE,
    kind: 'market-data',
    pollMs: HOUR_MS,
    defaultBaseUrl: 'https://www.ecb.europa.eu/stats/eurofxref',
    symbols: ECB_CROSSES.map((c) => c.symbol),
    async poll({ http, backfill, now }) {
      const { days, problems } = parseEcbCsv(await ecbCsvText(await http.bytes('/eurofxref-hist.zip')));
      return ecbBatch(days, backfill ? BACKFILL_DAYS : RECENT_DAYS, now, problems);
    },
  };
}
