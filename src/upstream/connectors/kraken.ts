/**
 * Kraken's public OHLC, the second crypto source (real USD pairs). Kraken has a ticker endpoint too,
 * but the candles already hold what a quote needs: the last 5m close is the price, 24 hourly
 * candles give the change and the volume, and one request per interval keeps us under its limits.
 */
import { z } from 'zod';
import { INTERVALS, type Candle, type Interval, type MarketMeta, type Quote } from '../../domain/market.js';
import type { Connector, MarketDataBatch } from '../connector.js';
import { UpstreamError } from '../errors.js';
import type { UpstreamHttp } from '../http.js';
import { parseEnvelope, parseItems } from '../validate.js';
import { decimal, nonNegativeDecimal, positiveDecimal } from './decimal.js';
import { INTERVAL_MINUTES, marketDataBatch, percentChange, RECENT_CANDLES, settleRequests } from './market-data-common.js';
import { HOUR_MS } from '../../domain/time.js';

const KRAKEN_SOURCE = 'kraken';

const KRAKEN_PAIRS: Record<string, { symbol: string; name: string }> = {
  XBTUSD: { symbol: 'BTC/USD', name: 'Bitcoin / US Dollar' },
  ETHUSD: { symbol: 'ETH/USD', name: 'Ether / US Dollar' },
  SOLUSD: { symbol: 'SOL/USD', name: 'Solana / US Dollar' },
  XRPUSD: { symbol: 'XRP/USD', name: 'XRP / US Dollar' },
  ADAUSD: { symbol: 'ADA/USD', name: 'Cardano / US Dollar' },
  DOTUSD: { symbol: 'DOT/USD', name: 'Polkadot / US Dollar' },
  LINKUSD: { symbol: 'LINK/USD', name: 'Chainlink / US Dollar' },
  LTCUSD: { symbol: 'LTC/USD', name: 'Litecoin / US Dollar' },
};

const FIVE_MINUTES_MS = 5 * 60_000;

const Envelope = z.object({ error: z.array(z.string()), result: z.record(z.string(), z.unknown()).optional() });
const Row = z.tuple([z.number(), positiveDecimal, positiveDecimal, positiveDecimal, positiveDecimal, decimal, nonNegativeDecimal]).rest(z.unknown());

/**
 * Kraken reports failures in `error` with a 200; its rate limit is `EGeneral:Too many requests` or
 * `EAPI:Rate limit exceeded`, which holds the source's further requests like a 429 would.
 */
function krakenError(errors: string[], rateLimited: UpstreamHttp['rateLimited']): UpstreamError {
  const text = errors.join('; ');
  if (/too many requests|rate limit/i.test(text)) return rateLimited(`answered ${text}`);
  // EService errors are Kraken's own trouble (worth another try); EQuery/EGeneral ones are about the request.
  const status = /^EService:/.test(errors[0] ?? '') ? 503 : 400;
  return new UpstreamError(KRAKEN_SOURCE, 'http', `answered ${text}`, { status });
}

/** The quote from the candles: price from 5m, change and volume over the last 24 hourly candles. */
function krakenQuote(symbol: string, fiveMinute: readonly Candle[], hourly: readonly Candle[], now: number): Quote | undefined {
  const last = fiveMinute.at(-1);
  if (!last) return undefined;
  const dayAgo = last.openTime - 24 * HOUR_MS;
  const reference = [...hourly].reverse().find((c) => c.openTime <= dayAgo);
  const lastDay = hourly.filter((c) => c.openTime > dayAgo);
  return {
    symbol,
    price: last.close,
    change24h: reference ? percentChange(reference.close, last.close) : 0,
    volume24h: lastDay.reduce((sum, c) => sum + c.volume, 0),
    observedAt: Math.min(now, last.openTime + FIVE_MINUTES_MS),
  };
}

export function createKrakenConnector(pairs: readonly string[] = Object.keys(KRAKEN_PAIRS)): Connector<MarketDataBatch> & { symbols: string[] } {
  const known = pairs.filter((p) => KRAKEN_PAIRS[p]);
  const metas: MarketMeta[] = known.map((pair) => ({
    symbol: KRAKEN_PAIRS[pair]!.symbol,
    name: KRAKEN_PAIRS[pair]!.name,
    type: 'crypto',
    source: KRAKEN_SOURCE,
    staleAfterMs: 5 * 60_000,
    halted: false,
  }));

  return {
    source: KRAKEN_SOURCE,
    kind: 'market-data',
    pollMs: 60_000,
    defaultBaseUrl: 'https://api.kraken.com',
    symbols: metas.map((m) => m.symbol),
    async poll({ http, backfill, now }) {
      const requests = known.flatMap((pair) => INTERVALS.map((interval) => ({ pair, interval })));
      const answers = await settleRequests(
        requests,
        2,
        (r) => `${r.pair} ${r.interval}`,
        async ({ pair, interval }: { pair: string; interval: Interval }) => {
          const body = parseEnvelope(
            KRAKEN_SOURCE,
            Envelope,
            await http.json(`/0/public/OHLC?pair=${pair}&interval=${INTERVAL_MINUTES[interval]}`),
            'the OHLC answer',
          );
          if (body.error.length > 0) throw krakenError(body.error, http.rateLimited);
          // The result is keyed by Kraken's own pair name (XXBTZUSD for XBTUSD), beside `last`.
          const key = Object.keys(body.result ?? {}).find((k) => k !== 'last');
          const rows = parseItems(Row, parseEnvelope(KRAKEN_SOURCE, z.array(z.unknown()), key ? body.result![key] : undefined, 'the OHLC rows'));
          const symbol = KRAKEN_PAIRS[pair]!.symbol;
          const candles = rows.items.map(
            ([time, open, high, low, close, , volume]): Candle => ({ symbol, interval, openTime: time * 1000, open, high, low, close, volume }),
          );
          return { pair, interval, candles, problems: rows.problems };
        },
      );

      const quotes: Quote[] = [];
      for (const pair of known) {
        const of = (interval: Interval) => answers.values.find((a) => a.pair === pair && a.interval === interval)?.candles ?? [];
        const quote = krakenQuote(KRAKEN_PAIRS[pair]!.symbol, of('5m'), of('1h'), now);
        if (quote) quotes.push(quote);
      }
      // Kraken always answers its last 720 candles: all of them on backfill, the newest few after.
      const candles = answers.values.flatMap((a) => (backfill ? a.candles : a.candles.slice(-RECENT_CANDLES)));
      return marketDataBatch(metas, quotes, candles, answers.problems, ...answers.values.map((a) => a.problems));
    },
  };
}
