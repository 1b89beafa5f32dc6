/**
 * Enterprise webhooks (D11): what an endpoint is, the events it can receive, and the one JSON shape
 * every event has (`id`, `type`, `created_at`, `data`), declared in variant A's OpenAPI document.
 */

/** Events an endpoint subscribes to. `webhook.test` is sent only when asked for, to one endpoint. */
export const SUBSCRIBABLE_EVENT_TYPES = ['price_alert.triggered', 'price_alert.expired'] as const;
export type SubscribableEventType = (typeof SUBSCRIBABLE_EVENT_TYPES)[number];
export type WebhookEventType = SubscribableEventType | 'webhook.test';

export const MAX_ENDPOINTS_PER_ACCOUNT = 10;
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface WebhookEndpoint {
  id: string;
  accountId: string;
  url: string;
  events: SubscribableEventType[];
  createdAt: number;
  /** Until then, the previous secret signs too (a rotation's overlap); null when there is none. */
  previousSecretUntil: number | null;
  disabledAt: number | null;
  /** Why the endpoint stopped receiving (410 Gone, or failing for the whole retry schedule). */
  disabledReason: string | null;
}

export interface WebhookDelivery {
  /** The `webhook-id` header: the same on every attempt, so a receiver can deduplicate. */
  id: string;
  eventId: string;
  eventType: WebhookEventType;
  endpointId: string;
  status: DeliveryStatus;
  attempts: number;
  /** When the next attempt is due (pending deliveries). */
  nextAttemptAt: number;
  lastAttemptAt: number | null;
  /** The receiver's HTTP status on the last attempt; null when it did not answer. */
  lastStatus: number | null;
  /** Why the last attempt failed, when it did (timeout, refused address, 500 ...). */
  lastError: string | null;
  /** The start of the receiver's last answer, truncated. */
  lastResponse: string | null;
  createdAt: number;
  finishedAt: number | null;
}

/** The body of an event, byte for byte what every attempt sends. */
export function webhookEventBody(event: { id: string; type: WebhookEventType; createdAt: number; data: unknown }): string {
  return JSON.stringify({ id: event.id, type: event.type, created_at: new Date(event.createdAt).toISOString(), data: event.data });
}

/** Whether an event type is one endpoints subscribe to (a comma list, as the CLI takes it). */
export const isSubscribableEventType = (type: string): type is SubscribableEventType => (SUBSCRIBABLE_EVENT_TYPES as readonly string[]).includes(type);
