/**
 * Kalshi's public market list (no key needed), both schemas: the legacy one with integer cents
 * (`last_price`, `yes_bid`, `volume_24h`) and the current one with decimal strings (`*_dollars`,
 * `*_fp`). The dollar/fp fields win when present. A market that has never traded and has no
 * two-sided quote has no probability yet: skipped, not invalid.
 */
import { z } from 'zod';
import type { Connector, PredictionBatch } from '../connector.js';
import { mergeProblems, parseEnvelope, parseItems, type ItemProblems } from '../validate.js';
import { decimal } from './decimal.js';
import { predictionBatch, type MappedMarket } from './prediction-common.js';

export const KALSHI_SOURCE = 'kalshi';
const PAGE_SIZE = 200;
const MAX_PAGES = 3;

const optionalNumber = decimal.nullish();

const KalshiMarket = z.object({
  ticker: z.string().min(1),
  event_ticker: z.string().min(1),
  title: z.string().trim().min(1),
  yes_sub_title: z.string().nullish(),
  status: z.string(),
  category: z.string().nullish(),
  last_price: optionalNumber,
  last_price_dollars: optionalNumber,
  yes_bid: optionalNumber,
  yes_bid_dollars: optionalNumber,
  yes_ask: optionalNumber,
  yes_ask_dollars: optionalNumber,
  volume_24h: optionalNumber,
  volume_24h_fp: optionalNumber,
});
type KalshiMarket = z.output<typeof KalshiMarket>;

const Page = z.object({ markets: z.array(z.unknown()), cursor: z.string().nullish() });

/** In dollars (0..1): the `_dollars` field, else the cents field / 100. */
const dollars = (decimal: number | null | undefined, cents: number | null | undefined): number | undefined =>
  decimal ?? (cents === null || cents === undefined ? undefined : cents / 100);

/** Last trade when there was one, else the middle of a two-sided quote. */
export function kalshiProbability(m: KalshiMarket): number | undefined {
  const last = dollars(m.last_price_dollars, m.last_price);
  if (last !== undefined && last > 0 && last <= 1) return last;
  const bid = dollars(m.yes_bid_dollars, m.yes_bid);
  const ask = dollars(m.yes_ask_dollars, m.yes_ask);
  if (bid !== undefined && ask !== undefined && bid > 0 && ask > 0 && ask <= 1) return (bid + ask) / 2;
  return undefined;
}

function question(m: KalshiMarket): string {
  const sub = m.yes_sub_title?.trim();
  return sub && !m.title.includes(sub) ? `${m.title} — ${sub}` : m.title;
}

export function createKalshiConnector(): Connector<PredictionBatch> {
  return {
    source: KALSHI_SOURCE,
    kind: 'prediction',
    pollMs: 60_000,
    defaultBaseUrl: 'https://api.elections.kalshi.com',
    async poll({ http, now }) {
      const mapped: MappedMarket[] = [];
      const problems: ItemProblems[] = [];
      let cursor: string | null | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const query = `/trade-api/v2/markets?status=open&limit=${PAGE_SIZE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const body = parseEnvelope(KALSHI_SOURCE, Page, await http.json(query), 'the market page');
        const parsed = parseItems(KalshiMarket, body.markets);
        problems.push(parsed.problems);
        for (const m of parsed.items) {
          if (m.status !== 'active' && m.status !== 'open') continue;
          const prob = kalshiProbability(m);
          if (prob === undefined) continue;
          mapped.push({
            meta: {
              id: `${KALSHI_SOURCE}:${m.ticker}`,
              source: KALSHI_SOURCE,
              question: question(m),
              url: `https://kalshi.com/markets/${m.event_ticker.toLowerCase()}`,
              topic: m.category?.toLowerCase() || null,
            },
            prob,
            volume24h: m.volume_24h_fp ?? m.volume_24h ?? 0,
          });
        }
        cursor = body.cursor;
        if (!cursor) break;
      }
      return predictionBatch(mapped, now, mergeProblems(...problems));
    },
  };
}
