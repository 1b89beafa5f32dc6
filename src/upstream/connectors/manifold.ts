/**
 * Manifold: its binary markets (YES/NO with a `probability`), open and unresolved, from the newest
 * markets read a page at a time (`before` the last id) up to the tracked bound; volumes are in mana.
 * Manifold reports no 24-hour move: the gateway's own history gives it.
 */
import { z } from 'zod';
import type { Connector, PredictionBatch } from '../connector.js';
import { parseEnvelope, parseItems } from '../validate.js';
import { decimal, probability } from './decimal.js';
import { readList, type Paging } from './pages.js';
import { predictionBatch, skip } from './prediction-common.js';

const MANIFOLD_SOURCE = 'manifold';
const PAGE_SIZE = 500;
export const MANIFOLD_MAX_MARKETS = 1_000;

const ManifoldMarket = z.object({
  id: z.string().min(1),
  question: z.string().trim().min(1),
  url: z.url(),
  outcomeType: z.string(),
  isResolved: z.boolean().optional(),
  closeTime: z.number().optional(),
  // A binary market always has one; without it the item is broken, not merely unpriced.
  probability,
  volume24Hours: decimal.optional(),
});

const idOf = (item: unknown): string | undefined => {
  const id = (item as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? id : undefined;
};

export function createManifoldConnector({ maxMarkets = MANIFOLD_MAX_MARKETS, pageGapMs: configuredGap }: Paging = {}): Connector<PredictionBatch> {
  return {
    source: MANIFOLD_SOURCE,
    kind: 'prediction',
    pollMs: 120_000,
    defaultBaseUrl: 'https://api.manifold.markets',
    async poll(context) {
      const { http, now } = context;
      const answer = await readList(context, maxMarkets, PAGE_SIZE, configuredGap, async (before, limit) => {
        const body = await http.json(`/v0/markets?limit=${limit}${before ? `&before=${encodeURIComponent(before)}` : ''}`);
        const items = parseEnvelope(MANIFOLD_SOURCE, z.array(z.unknown()), body, 'the market list');
        const last = idOf(items.at(-1));
        return { items, next: items.length < limit || !last ? null : last };
      });
      const skipped: Record<string, number> = {};
      // Other kinds (multiple choice, polls, numbers) have no single probability: not ours, not invalid.
      const binary = answer.items.filter((m) => {
        const isBinary = (m as { outcomeType?: unknown } | null)?.outcomeType === 'BINARY';
        if (!isBinary) skip(skipped, 'not_binary');
        return isBinary;
      });
      const { items, problems } = parseItems(ManifoldMarket, binary);
      if (answer.stoppedBy) problems.examples.unshift(answer.stoppedBy);
      const open = items.filter((m) => {
        const closed = m.isResolved === true || (m.closeTime !== undefined && m.closeTime <= now);
        if (closed) skip(skipped, 'closed');
        return !closed;
      });
      return predictionBatch(
        MANIFOLD_SOURCE,
        open.map((m) => ({
          meta: { id: `${MANIFOLD_SOURCE}:${m.id}`, source: MANIFOLD_SOURCE, question: m.question, url: m.url, topic: null },
          prob: m.probability,
          volume24h: m.volume24Hours ?? 0,
          // Manifold's list has no description (only a market's own page does): the question and close time.
          text: { rules: '', closeTime: m.closeTime ?? null },
        })),
        now,
        problems,
        { skipped, complete: answer.complete },
      );
    },
  };
}
