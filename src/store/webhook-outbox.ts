/**
 * The events outbox: an event is written in the transaction that caused it (`enqueueEvent`), with
 * one pending delivery per subscribed endpoint, and each endpoint's `next_due_at` moved down to it.
 */
import type { Kysely } from 'kysely';
import { newId } from '../domain/ids.js';
import { type WebhookDelivery, type WebhookEventType, webhookEventBody } from '../domain/webhooks.js';
import { currentTraceparent } from '../telemetry/background.js';
import type { Database } from './tables.js';
import { toDelivery } from './webhook-rows.js';

export interface OutboxEvent {
  type: WebhookEventType;
  accountId: string;
  data: unknown;
  at: number;
}

/** Moves an endpoint's `next_due_at` down to `at` (never up) and says its queue changed. */
export const queued = (db: Kysely<Database>, endpointIds: readonly string[], at: number) =>
  db
    .updateTable('webhook_endpoints')
    .set((eb) => ({
      next_due_at: eb.case().when('next_due_at', 'is', null).then(at).when('next_due_at', '>', at).then(at).else(eb.ref('next_due_at')).end(),
      queue_version: eb('queue_version', '+', 1),
    }))
    .where('id', 'in', endpointIds)
    .execute();

/**
 * Writes an event and a pending delivery for each enabled endpoint of its account that subscribes
 * to its type (or only `endpointId`, for a test event). Run it inside the transaction that caused
 * the event: both are kept, or neither. Returns the deliveries made; no endpoint, no event row.
 */
export async function enqueueEvent(db: Kysely<Database>, event: OutboxEvent, endpointId?: string): Promise<WebhookDelivery[]> {
  let query = db.selectFrom('webhook_endpoints').select(['id', 'events']).where('account_id', '=', event.accountId).where('disabled_at', 'is', null);
  if (endpointId) query = query.where('id', '=', endpointId);
  const endpoints = (await query.execute()).filter((e) => endpointId || e.events.split(',').includes(event.type));
  if (endpoints.length === 0) return [];
  const eventId = newId('evt');
  await db
    .insertInto('webhook_events')
    .values({
      id: eventId,
      account_id: event.accountId,
      type: event.type,
      body: webhookEventBody({ id: eventId, ...event, createdAt: event.at }),
      created_at: event.at,
      // Its deliveries link to the span that wrote it (null when tracing is off or outside a span).
      trace_parent: currentTraceparent() ?? null,
    })
    .execute();
  const rows = endpoints.map((e) => ({
    id: newId('msg'),
    event_id: eventId,
    endpoint_id: e.id,
    status: 'pending',
    attempts: 0,
    next_attempt_at: event.at,
    last_attempt_at: null,
    last_status: null,
    last_error: null,
    last_response: null,
    created_at: event.at,
    finished_at: null,
  }));
  await db.insertInto('webhook_deliveries').values(rows).execute();
  await queued(
    db,
    endpoints.map((e) => e.id),
    event.at,
  );
  return rows.map((row) => toDelivery({ ...row, type: event.type }));
}
