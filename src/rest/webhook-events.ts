/**
 * The webhook events, as variant A's OpenAPI document declares them (its 3.1 `webhooks` section),
 * so receivers can generate types and validate. One shape for every event: `id`, `type`,
 * `created_at`, `data`. A test validates delivered bodies against this declaration.
 */
import { z } from 'zod';
import { AlertSchema, timestamp } from './routes/market-data.js';

const envelope = <T extends string, D extends z.ZodType>(type: T, data: D) =>
  z.object({
    id: z.string().describe('The event id (evt_...): the same for every endpoint that receives the event.'),
    type: z.literal(type),
    created_at: timestamp.describe('When the event happened.'),
    data,
  });

/** The alert as GET /api/v1/alerts shows it, in the state the event reports. */
const alertOf = (status: 'triggered' | 'expired') =>
  AlertSchema.extend({ status: z.literal(status), triggered_at: status === 'triggered' ? timestamp : z.null() }).describe(
    'The alert as GET /api/v1/alerts shows it, after the change.',
  );

const QuoteSchema = z
  .object({
    symbol: z.string(),
    price: z.number(),
    change_24h: z.number().describe('percent change over 24 hours'),
    observed_at: timestamp,
  })
  .describe('The quote the alert was judged on.');

export const WEBHOOK_EVENTS = {
  'price_alert.triggered': {
    summary: 'A price alert triggered',
    description: "One of the account's price alerts met its condition; it will not trigger again.",
    schema: envelope('price_alert.triggered', z.object({ alert: alertOf('triggered'), quote: QuoteSchema })),
  },
  'price_alert.expired': {
    summary: 'A price alert expired',
    description: "One of the account's price alerts reached its `expires_at` untriggered. `quote` is null when the market had no new quote then.",
    schema: envelope('price_alert.expired', z.object({ alert: alertOf('expired'), quote: QuoteSchema.nullable() })),
  },
  'webhook.test': {
    summary: 'A test event',
    description: 'Sent to one endpoint when its owner asks (`webhooks test`, `sendTestWebhook`), never subscribed to.',
    schema: envelope('webhook.test', z.object({ endpoint_id: z.string(), message: z.string() })),
  },
} as const;

export type WebhookEventDeclarations = Record<string, { summary: string; description: string; schema: z.ZodType }>;

/** How deliveries are made: part of each event's description in the OpenAPI document. */
export const WEBHOOK_DELIVERY_NOTES = [
  'Endpoints are registered with the CLI (`webhooks create`) or on /graphql (`createWebhookEndpoint`). Each delivery is a POST of one event ' +
    '(one of the events in this section), signed per the Standard Webhooks specification: `webhook-id` (the same on every attempt: deduplicate on it), ' +
    '`webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>`; two, space-separated, while a rotated secret overlaps). ' +
    'Verify with a Standard Webhooks library and the `whsec_` secret shown when the endpoint was made.',
  'Answer 2xx within 10 s. Anything else, a timeout or a refused connection is retried 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h later ' +
    '(each +/-10 %), never sooner than a `Retry-After` sent with 429 or 503. Redirects are not followed. 410 disables the endpoint; so does ' +
    'failing every delivery for the whole schedule. Delivery is at least once and unordered.',
].join('\n\n');
