/**
 * Polymarket, through its Gamma API: the open markets with the most 24-hour volume, read a page at a
 * time (`limit`/`offset`) up to the tracked bound. The probability of YES is the first price of
 * `outcomePrices` (Gamma's displayed price), which Gamma sends as a JSON-encoded string; its
 * 24-hour move is `oneDayPriceChange` where Gamma reports one.
 */
import { z } from 'zod';
import type { Connector, PredictionBatch } from '../connector.js';
import { parseEnvelope, parseItems } from '../validate.js';
import { decimal, probability } from './decimal.js';
import { readList, type Paging } from './pages.js';
import { instantOrNull, pointsOf, predictionBatch, skip } from './prediction-common.js';

const POLYMARKET_SOURCE = 'polymarket';
/** Gamma answers up to 500 markets a request (asked for 500, its recording got 500), so a shorter page is the last. */
const PAGE_SIZE = 500;
export const POLYMARKET_MAX_MARKETS = 1_000;

/** A JSON-encoded list inside a string (`"[\"0.0025\", \"0.9975\"]"`), its first element checked by `first`. */
const firstOfEncodedList = <T extends z.ZodType>(what: string, first: T) =>
  z.string().transform((text, ctx): z.output<T> => {
    let list: unknown;
    try {
      list = JSON.parse(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: `${what} is not JSON` });
      return z.NEVER;
    }
    const parsed = Array.isArray(list) ? first.safeParse(list[0]) : undefined;
    if (!parsed?.success) {
      ctx.addIssue({ code: 'custom', message: `${what} has no valid first element` });
      return z.NEVER;
    }
    return parsed.data;
  });

const GammaMarket = z.object({
  id: z.union([z.string().min(1), z.number()]).transform(String),
  question: z.string().trim().min(1),
  slug: z.string().min(1),
  outcomePrices: firstOfEncodedList('outcomePrices', probability),
  /** The name of the first outcome: `Yes` for most markets, a team or a candidate for the others. */
  outcomes: firstOfEncodedList('outcomes', z.string()).optional().catch(undefined),
  volume24hr: decimal.optional(),
  oneDayPriceChange: decimal.optional().catch(undefined),
  active: z.boolean().optional(),
  closed: z.boolean().optional(),
  archived: z.boolean().optional(),
  category: z.string().optional(),
  // What the market links' judge reads; a market without them is still priced.
  description: z.string().optional().catch(undefined),
  resolutionSource: z.string().optional().catch(undefined),
  endDate: z.string().optional().catch(undefined),
  events: z
    .array(
      z
        .object({ slug: z.string().optional(), category: z.string().optional(), tags: z.array(z.object({ label: z.string() }).passthrough()).optional() })
        .passthrough(),
    )
    .optional(),
});

export function createPolymarketConnector({ maxMarkets = POLYMARKET_MAX_MARKETS, pageGapMs: configuredGap }: Paging = {}): Connector<PredictionBatch> {
  return {
    source: POLYMARKET_SOURCE,
    kind: 'prediction',
    pollMs: 60_000,
    defaultBaseUrl: 'https://gamma-api.polymarket.com',
    async poll(context) {
      const { http, now } = context;
      const answer = await readList(context, maxMarkets, PAGE_SIZE, configuredGap, async (from, limit) => {
        const offset = Number(from ?? 0);
        const body = await http.json(`/markets?active=true&closed=false&order=volume24hr&ascending=false&limit=${limit}&offset=${offset}`);
        const items = parseEnvelope(POLYMARKET_SOURCE, z.array(z.unknown()), body, 'the market list');
        return { items, next: items.length < limit ? null : String(offset + items.length) };
      });
      const { items, problems } = parseItems(GammaMarket, answer.items);
      if (answer.stoppedBy) problems.examples.unshift(answer.stoppedBy);
      const skipped: Record<string, number> = {};
      const open = items.filter((m) => {
        const closed = m.active === false || m.closed === true || m.archived === true;
        if (closed) skip(skipped, 'closed');
        return !closed;
      });
      return predictionBatch(
        POLYMARKET_SOURCE,
        open.map((m) => {
          const event = m.events?.[0];
          const eventSlug = event?.slug;
          // The market's own category, else its event's, else the event's first tag.
          const topic = m.category ?? event?.category ?? event?.tags?.[0]?.label;
          return {
            meta: {
              id: `${POLYMARKET_SOURCE}:${m.id}`,
              source: POLYMARKET_SOURCE,
              question: m.question,
              url: eventSlug ? `https://polymarket.com/event/${eventSlug}` : `https://polymarket.com/market/${m.slug}`,
              topic: topic?.toLowerCase() ?? null,
            },
            // A market whose outcomes have names ("Lakers", "Celtics") prices the first: say which.
            outcome: m.outcomes,
            titleNamesOthers: m.outcomes !== undefined && !/^yes$/i.test(m.outcomes),
            prob: m.outcomePrices,
            volume24h: m.volume24hr ?? 0,
            move24hPts: m.oneDayPriceChange === undefined ? null : pointsOf(m.oneDayPriceChange),
            text: { rules: m.description ?? '', closeTime: instantOrNull(m.endDate), resolutionSource: m.resolutionSource || null },
          };
        }),
        now,
        problems,
        { skipped, complete: answer.complete },
      );
    },
  };
}
