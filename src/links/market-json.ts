/**
 * The MARKET shape `links judge` and `links claims` read (`{"venue", "id", "question", "rules",
 * "close_time", "yes_side"?}`), checked whole: a line that is not one gets a message naming the field.
 */
import { z } from 'zod';
import type { MarketText } from '../domain/links.js';
import { parseTimestamp } from './normalize.js';

const timestamp = z
  .string()
  .nullable()
  .optional()
  .refine((value) => value === null || value === undefined || parseTimestamp(value) !== null, {
    message: 'not a time (ISO 8601, e.g. 2026-05-10T17:01:08Z or 2026-05-10 18:54:53+00)',
  });

const finite = z.number().finite().nullable().optional();

const MarketJson = z.object({
  venue: z.string().min(1),
  id: z.string().min(1),
  question: z.string().min(1),
  rules: z.string().nullable().optional(),
  close_time: timestamp,
  expiry_time: timestamp,
  yes_side: z.string().nullable().optional(),
  strike: z
    .object({ type: z.string().min(1), floor: finite, cap: finite })
    .nullable()
    .optional(),
  resolution_source: z.string().nullable().optional(),
});

/** The market a JSON value describes; throws an Error whose message names what is wrong. */
export function marketTextFromJson(json: unknown): MarketText {
  const parsed = MarketJson.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    throw new Error(`not a market: ${where}${issue?.message ?? 'invalid'}`);
  }
  const m = parsed.data;
  const time = (value: string | null | undefined) => (value ? parseTimestamp(value) : null);
  const market: MarketText = { venue: m.venue.toLowerCase(), id: m.id, question: m.question, rules: m.rules ?? '', closeTime: time(m.close_time) };
  if (m.expiry_time) market.expiryTime = time(m.expiry_time);
  if (m.yes_side) market.yesSide = m.yes_side;
  if (m.strike) market.strike = { type: m.strike.type, floor: m.strike.floor ?? null, cap: m.strike.cap ?? null };
  if (m.resolution_source) market.resolutionSource = m.resolution_source;
  return market;
}
