/**
 * Kalshi's public market list (no key needed), both schemas: the legacy one with integer cents
 * (`last_price`, `yes_bid`, `volume_24h`) and the current one with decimal strings (`*_dollars`,
 * `*_fp`); the dollar/fp fields win when present. It tracks every open market of the selected
 * series and events (`KALSHI_SERIES`, `KALSHI_EVENTS`), or the open markets in Kalshi's own order
 * when none is selected, a cursor page at a time up to the tracked bound. Multivariate combos
 * (parlays the exchange mints by the thousand, never traded) are left out.
 */
import { z } from 'zod';
import type { Connector, PollContext, PredictionBatch } from '../connector.js';
import { UpstreamError } from '../errors.js';
import { parseEnvelope, parseItems } from '../validate.js';
import { countEach } from '../../prediction/questions.js';
import { decimal } from './decimal.js';
import { pageGapMs, readPages, type PagedAnswer, type Paging } from './pages.js';
import { instantOrNull, predictionBatch, priceFromBook, skip, type MappedMarket } from './prediction-common.js';

const KALSHI_SOURCE = 'kalshi';
/** Kalshi answers at most 1 000 markets a request. */
const PAGE_SIZE = 1_000;
export const KALSHI_MAX_MARKETS = 5_000;

const optionalNumber = decimal.nullish();

const KalshiMarket = z.object({
  ticker: z.string().min(1),
  event_ticker: z.string().min(1),
  title: z.string().trim().min(1),
  yes_sub_title: z.string().nullish(),
  status: z.string(),
  category: z.string().nullish(),
  mve_collection_ticker: z.string().nullish(),
  last_price: optionalNumber,
  last_price_dollars: optionalNumber,
  previous_price: optionalNumber,
  previous_price_dollars: optionalNumber,
  yes_bid: optionalNumber,
  yes_bid_dollars: optionalNumber,
  yes_ask: optionalNumber,
  yes_ask_dollars: optionalNumber,
  volume_24h: optionalNumber,
  volume_24h_fp: optionalNumber,
  // What the market links' judge reads; a market without them is still priced.
  rules_primary: z.string().nullish().catch(null),
  rules_secondary: z.string().nullish().catch(null),
  strike_type: z.string().nullish().catch(null),
  floor_strike: optionalNumber.catch(null),
  cap_strike: optionalNumber.catch(null),
  close_time: z.string().nullish().catch(null),
  expiration_time: z.string().nullish().catch(null),
});
type KalshiMarket = z.output<typeof KalshiMarket>;

const Page = z.object({ markets: z.array(z.unknown()), cursor: z.string().nullish() });

/** In dollars (0..1): the `_dollars` field, else the cents field / 100. */
const dollars = (decimal: number | null | undefined, cents: number | null | undefined): number | undefined =>
  decimal ?? (cents === null || cents === undefined ? undefined : cents / 100);

/** Last trade when there was one, else the middle of a two-sided quote. */
const kalshiProbability = (m: KalshiMarket): number | undefined =>
  priceFromBook({
    last: dollars(m.last_price_dollars, m.last_price),
    bid: dollars(m.yes_bid_dollars, m.yes_bid),
    ask: dollars(m.yes_ask_dollars, m.yes_ask),
  });

/**
 * The move since the last trade a day ago, in points; none when there was no trade then (Kalshi
 * sends 0). Computed in half basis points: prices have 4 decimals and a quote's middle 4.5, so the
 * difference is exact (a float subtraction of two such prices can land just off a rounding half:
 * 0.9307 - 0.9992 is -0.06849999...).
 */
function moveSinceYesterday(m: KalshiMarket, prob: number): number | null {
  const previous = dollars(m.previous_price_dollars, m.previous_price);
  if (previous === undefined || previous <= 0) return null;
  return (Math.round(prob * 20_000) - 2 * Math.round(previous * 10_000)) / 200;
}

/** The rules (primary, then secondary), times and strike the market links' judge reads. */
const kalshiText = (m: KalshiMarket): MappedMarket['text'] => ({
  rules: [m.rules_primary, m.rules_secondary].filter(Boolean).join('\n\n'),
  closeTime: instantOrNull(m.close_time),
  expiryTime: instantOrNull(m.expiration_time),
  strike: m.strike_type ? { type: m.strike_type, floor: m.floor_strike ?? null, cap: m.cap_strike ?? null } : null,
});

interface KalshiSelection extends Paging {
  /** Series tickers (`KXNCAAMBGAME`): every open market of each. */
  series?: readonly string[];
  /** Event tickers (`KXNCAAMBGAME-26MAR19SIEDUKE`): every open market of each. */
  events?: readonly string[];
}

/**
 * Every selected list in turn (`filters`: one query suffix each), one request at a time, the bound
 * shared between them.
 */
async function readLists(
  context: PollContext,
  filters: readonly string[],
  maxMarkets: number,
  configuredGap: number | undefined,
): Promise<PagedAnswer<unknown>> {
  const all: PagedAnswer<unknown> = { items: [], complete: true, requests: 0 };
  const gapMs = pageGapMs(context.pollMs, maxMarkets, PAGE_SIZE, configuredGap);
  for (const [i, filter] of filters.entries()) {
    if (all.items.length >= maxMarkets) break;
    if (i > 0) await context.sleep(gapMs);
    let answer: PagedAnswer<unknown>;
    try {
      answer = await readPages(context, {
        maxItems: maxMarkets - all.items.length,
        pageSize: PAGE_SIZE,
        gapMs,
        async fetch(cursor, limit) {
          const query = `/trade-api/v2/markets?status=open&mve_filter=exclude&limit=${limit}${filter}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
          const body = parseEnvelope(KALSHI_SOURCE, Page, await context.http.json(query), 'the market page');
          return { items: body.markets, next: body.cursor || null };
        },
      });
    } catch (error) {
      // The first list failing fails the poll; a later one keeps what the earlier ones gave.
      if (i === 0 || !(error instanceof UpstreamError)) throw error;
      return { ...all, complete: false, stoppedBy: `list ${i + 1}: ${error.message}` };
    }
    all.items.push(...answer.items);
    all.requests += answer.requests;
    if (!answer.complete) return { ...all, complete: false, ...(answer.stoppedBy ? { stoppedBy: answer.stoppedBy } : {}) };
  }
  return all;
}

/** The open, priced markets that are not combos, mapped; the others counted by why they were left out. */
function mapMarkets(markets: readonly KalshiMarket[]): { mapped: MappedMarket[]; skipped: Record<string, number> } {
  const skipped: Record<string, number> = {};
  const mapped: MappedMarket[] = [];
  // Counted before any is left out: "Siena at Duke Winner?" names Duke even when Siena's market is unpriced.
  const titles = countEach(markets.map((m) => `${m.event_ticker}|${m.title}`));
  for (const m of markets) {
    if (m.status !== 'active' && m.status !== 'open') skip(skipped, 'closed');
    else if (m.mve_collection_ticker) skip(skipped, 'combo');
    else {
      const prob = kalshiProbability(m);
      if (prob === undefined) skip(skipped, 'unpriced');
      else {
        mapped.push({
          meta: {
            id: `${KALSHI_SOURCE}:${m.ticker}`,
            source: KALSHI_SOURCE,
            question: m.title,
            url: `https://kalshi.com/markets/${m.event_ticker.toLowerCase()}`,
            topic: m.category?.toLowerCase() || null,
          },
          outcome: m.yes_sub_title,
          titleNamesOthers: titles.get(`${m.event_ticker}|${m.title}`)! > 1,
          prob,
          volume24h: m.volume_24h_fp ?? m.volume_24h ?? 0,
          move24hPts: moveSinceYesterday(m, prob),
          text: kalshiText(m),
        });
      }
    }
  }
  return { mapped, skipped };
}

export function createKalshiConnector({
  series = [],
  events = [],
  maxMarkets = KALSHI_MAX_MARKETS,
  pageGapMs: configuredGap,
}: KalshiSelection = {}): Connector<PredictionBatch> {
  // One market list per selector; none selected: the whole open list.
  const filters = [...series.map((s) => `&series_ticker=${encodeURIComponent(s)}`), ...events.map((e) => `&event_ticker=${encodeURIComponent(e)}`)];
  const lists = filters.length > 0 ? filters : [''];

  return {
    source: KALSHI_SOURCE,
    kind: 'prediction',
    pollMs: 60_000,
    defaultBaseUrl: 'https://api.elections.kalshi.com',
    async poll(context) {
      const answer = await readLists(context, lists, maxMarkets, configuredGap);
      const parsed = parseItems(KalshiMarket, answer.items);
      const { problems } = parsed;
      if (answer.stoppedBy) problems.examples.unshift(answer.stoppedBy);
      const { mapped, skipped } = mapMarkets(parsed.items);
      return predictionBatch(KALSHI_SOURCE, mapped, context.now, problems, { skipped, complete: answer.complete });
    },
  };
}
