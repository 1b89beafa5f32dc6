/**
 * Polymarket, through its Gamma API: the open markets with the most 24-hour volume. The probability
 * of YES is the first price of `outcomePrices`, which Gamma sends as a JSON-encoded string.
 */
import { z } from 'zod';
import type { Connector, PredictionBatch } from '../connector.js';
import { parseEnvelope, parseItems } from '../validate.js';
import { decimal, probability } from './decimal.js';
import { predictionBatch } from './prediction-common.js';

export const POLYMARKET_SOURCE = 'polymarket';
const LIMIT = 100;

/** `"[\"0.0025\", \"0.9975\"]"` -> 0.0025; anything else fails the item. */
const firstOutcomePrice = z.string().transform((text, ctx) => {
  let prices: unknown;
  try {
    prices = JSON.parse(text);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'outcomePrices is not JSON' });
    return z.NEVER;
  }
  const first = Array.isArray(prices) ? probability.safeParse(prices[0]) : undefined;
  if (!first?.success) {
    ctx.addIssue({ code: 'custom', message: 'outcomePrices has no first price in 0..1' });
    return z.NEVER;
  }
  return first.data;
});

const GammaMarket = z.object({
  id: z.union([z.string().min(1), z.number()]).transform(String),
  question: z.string().trim().min(1),
  slug: z.string().min(1),
  outcomePrices: firstOutcomePrice,
  volume24hr: decimal.optional(),
  active: z.boolean().optional(),
  closed: z.boolean().optional(),
  archived: z.boolean().optional(),
  category: z.string().optional(),
  events: z
    .array(z.object({ slug: z.string().optional(), category: z.string().optional(), tags: z.array(z.object({ label: z.string() }).passthrough()).optional() }).passthrough())
    .optional(),
});

export function createPolymarketConnector(): Connector<PredictionBatch> {
  return {
    source: POLYMARKET_SOURCE,
    kind: 'prediction',
    pollMs: 60_000,
    defaultBaseUrl: 'https://gamma-api.polymarket.com',
    async poll({ http, now }) {
      const body = await http.json(`/markets?active=true&closed=false&order=volume24hr&ascending=false&limit=${LIMIT}`);
      const list = parseEnvelope(POLYMARKET_SOURCE, z.array(z.unknown()), body, 'the market list');
      const { items, problems } = parseItems(GammaMarket, list);
      const open = items.filter((m) => m.active !== false && m.closed !== true && m.archived !== true);
      return predictionBatch(
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
            prob: m.outcomePrices,
            volume24h: m.volume24hr ?? 0,
          };
        }),
        now,
        problems,
      );
    },
  };
}
