/** An endpoint and a delivery as their rows read, for every query of the webhook repository that returns one. */
import type { Selectable } from 'kysely';
import type { DeliveryStatus, SubscribableEventType, WebhookDelivery, WebhookEndpoint, WebhookEventType } from '../domain/webhooks.js';
import type { WebhookDeliveriesTable, WebhookEndpointsTable } from './tables.js';

export const ENDPOINT_COLUMNS = ['id', 'account_id', 'url', 'events', 'created_at', 'previous_secret_until', 'disabled_at', 'disabled_reason'] as const;

export function toEndpoint(row: Pick<Selectable<WebhookEndpointsTable>, (typeof ENDPOINT_COLUMNS)[number]>): WebhookEndpoint {
  return {
    id: row.id,
    accountId: row.account_id,
    url: row.url,
    events: row.events.split(',').filter(Boolean) as SubscribableEventType[],
    createdAt: row.created_at,
    previousSecretUntil: row.previous_secret_until,
    disabledAt: row.disabled_at,
    disabledReason: row.disabled_reason,
  };
}

export function toDelivery(row: Omit<Selectable<WebhookDeliveriesTable>, 'seq'> & { type: string }): WebhookDelivery {
  return {
    id: row.id,
    eventId: row.event_id,
    eventType: row.type as WebhookEventType,
    endpointId: row.endpoint_id,
    status: row.status as DeliveryStatus,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    lastAttemptAt: row.last_attempt_at,
    lastStatus: row.last_status,
    lastError: row.last_error,
    lastResponse: row.last_response,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}
