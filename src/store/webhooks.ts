/**
 * Webhook endpoints, the events outbox and the deliveries queue (D11). An event is written in the
 * transaction that caused it (`enqueueEvent`), with one pending delivery per subscribed endpoint.
 * The worker finds the endpoints with a delivery due (`next_due_at`), then each one's due
 * deliveries (a partial index of pending ones per endpoint), and records each attempt with a
 * conditional update, so an attempt is recorded once.
 */
import type { Kysely } from 'kysely';
import type { Database } from './tables.js';
import { createWebhookAttempts } from './webhook-attempts.js';
import { createWebhookDeliveries } from './webhook-deliveries.js';
import { createWebhookEndpointStates } from './webhook-endpoint-states.js';
import { createWebhookEndpoints } from './webhook-endpoints.js';
import { createWebhookQueue } from './webhook-queue.js';

export type { AttemptRecord } from './webhook-attempts.js';
export { enqueueEvent, type OutboxEvent } from './webhook-outbox.js';
export type { DueDelivery, DueEndpoint } from './webhook-queue.js';

/** The repository of webhook endpoints, events and deliveries: one module per concern, over one handle. */
export function createWebhookRepository(db: Kysely<Database>) {
  return {
    ...createWebhookEndpoints(db),
    ...createWebhookEndpointStates(db),
    ...createWebhookDeliveries(db),
    ...createWebhookQueue(db),
    ...createWebhookAttempts(db),
  };
}

export type WebhookRepository = ReturnType<typeof createWebhookRepository>;
