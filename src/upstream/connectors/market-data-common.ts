/** What the market-data connectors share: a request cap, per-request failure collection, the batch. */
import type { Candle, Interval, MarketMeta, Quote } from '../../domain/market.js';
import type { MarketDataBatch } from '../connector.js';
import { UpstreamError } from '../errors.js';
import { mergeProblems, type ItemProblems } from '../validate.js';

/** Runs `jobs` with at most `limit` in flight, results in input order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, job: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  async function worker(): Promise<void> {
    while (next < items.length) {
      const i = next++;
      results[i] = await job(items[i]!);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown; label: string };

/**
 * One upstream answer per request: a failed request costs only its own data (counted as a problem);
 * when every request failed the poll fails with the first error, so the scheduler retries and counts it.
 */
export async function settleRequests<T, R>(
  items: readonly T[],
  limit: number,
  label: (item: T) => string,
  job: (item: T) => Promise<R>,
): Promise<{ values: R[]; problems: ItemProblems }> {
  const outcomes = await mapLimited(items, limit, async (item): Promise<Outcome<R>> => {
    try {
      return { ok: true, value: await job(item) };
    } catch (error) {
      return { ok: false, error, label: label(item) };
    }
  });
  const failed = outcomes.filter((o): o is Extract<Outcome<R>, { ok: false }> => !o.ok);
  if (items.length > 0 && failed.length === items.length) throw failed[0]!.error;
  const values = outcomes.flatMap((o) => (o.ok ? [o.value] : []));
  const problems: ItemProblems = {
    invalid: failed.length,
    examples: failed.slice(0, 3).map((f) => `${f.label}: ${f.error instanceof UpstreamError ? f.error.message : String(f.error)}`),
  };
  return { values, problems };
}

export function marketDataBatch(markets: MarketMeta[], quotes: Quote[], candles: Candle[], ...problems: ItemProblems[]): MarketDataBatch {
  return { kind: 'market-data', markets, quotes, candles, problems: mergeProblems(...problems), skipped: {} };
}

/** Candles a poll sends: the whole history on backfill, else only the newest few (the open one and the last closed). */
export const RECENT_CANDLES = 2;
export const BACKFILL_CANDLES = 150;

export const INTERVAL_MINUTES: Record<Interval, number> = { '5m': 5, '15m': 15, '1h': 60, '4h': 240, '1d': 1440 };

/** Percent change from `from` to `to`, unrounded: the API rounds it once, where it is shown. */
export const percentChange = (from: number, to: number): number => ((to - from) / from) * 100;
