/** Manifold: its binary markets (YES/NO with a `probability`), open and unresolved; volumes are in mana. */
import { z } from 'zod';
import type { Connector, PredictionBatch } from '../connector.js';
import { parseEnvelope, parseItems } from '../validate.js';
import { decimal, probability } from './decimal.js';
import { predictionBatch } from './prediction-common.js';

export const MANIFOLD_SOURCE = 'manifold';

const ManifoldMarket = z.object({
  id: z.string().min(1),
  question: z.string().trim().min(1),
  url: z.string().url(),
  outcomeType: z.string(),
  isResolved: z.boolean().optional(),
  closeTime: z.number().optional(),
  // A binary market always has one; without it the item is broken, not merely unpriced.
  probability,
  volume24Hours: decimal.optional(),
});

export function createManifoldConnector(): Connector<PredictionBatch> {
  return {
    source: MANIFOLD_SOURCE,
    kind: 'prediction',
    pollMs: 120_000,
    defaultBaseUrl: 'https://api.manifold.markets',
    async poll({ http, now }) {
      const list = parseEnvelope(MANIFOLD_SOURCE, z.array(z.unknown()), await http.json('/v0/markets?limit=500'), 'the market list');
      // Other kinds (multiple choice, polls, numbers) have no single probability: not ours, not invalid.
      const binary = list.filter((m) => (m as { outcomeType?: unknown } | null)?.outcomeType === 'BINARY');
      const { items, problems } = parseItems(ManifoldMarket, binary);
      const open = items.filter((m) => !m.isResolved && (m.closeTime === undefined || m.closeTime > now));
      return predictionBatch(
        open.map((m) => ({
          meta: { id: `${MANIFOLD_SOURCE}:${m.id}`, source: MANIFOLD_SOURCE, question: m.question, url: m.url, topic: null },
          prob: m.probability,
          volume24h: m.volume24Hours ?? 0,
        })),
        now,
        problems,
      );
    },
  };
}
