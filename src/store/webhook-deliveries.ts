/** Deliveries as an account sees them: a test event queued for one endpoint, listed, found, replayed. */
import type { Kysely } from 'kysely';
import type { Scope } from '../domain/scope.js';
import type { WebhookDelivery } from '../domain/webhooks.js';
import type { Database } from './tables.js';
import { enqueueEvent, type OutboxEvent, queued } from './webhook-outbox.js';
import { toDelivery } from './webhook-rows.js';

export function createWebhookDeliveries(db: Kysely<Database>) {
  const deliveriesWithType = () =>
    db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as ev', 'ev.id', 'd.event_id')
      .select([
        'd.id',
        'd.event_id',
        'd.endpoint_id',
        'd.status',
        'd.attempts',
        'd.next_attempt_at',
        'd.last_attempt_at',
        'd.last_status',
        'd.last_error',
        'd.last_response',
        'd.created_at',
        'd.finished_at',
        'ev.type',
      ]);

  return {
    /** An event for one endpoint (a test event), in its own transaction. */
    async enqueueFor(endpointId: string, event: OutboxEvent): Promise<WebhookDelivery | undefined> {
      return db.transaction().execute(async (trx) => (await enqueueEvent(trx, event, endpointId))[0]);
    },

    /** Newest first; in an account's scope, only of that account's events. */
    async listDeliveries(endpointId: string, limit: number, scope: Scope): Promise<WebhookDelivery[]> {
      let query = deliveriesWithType().where('d.endpoint_id', '=', endpointId);
      if (scope.kind === 'account') query = query.where('ev.account_id', '=', scope.accountId);
      const rows = await query.orderBy('d.seq', 'desc').limit(limit).execute();
      return rows.map(toDelivery);
    },

    /** In an account's scope, only a delivery of that account's events. */
    async findDelivery(id: string, scope: Scope): Promise<(WebhookDelivery & { accountId: string }) | undefined> {
      let query = deliveriesWithType().select('ev.account_id').where('d.id', '=', id);
      if (scope.kind === 'account') query = query.where('ev.account_id', '=', scope.accountId);
      const row = await query.executeTakeFirst();
      return row ? { ...toDelivery(row), accountId: row.account_id } : undefined;
    },

    /** Sends a delivery again from the start of the schedule, with the same `webhook-id` and body. */
    async replay(id: string, now: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('webhook_deliveries')
          .set({ status: 'pending', attempts: 0, next_attempt_at: now, finished_at: null })
          .where('id', '=', id)
          .returning('endpoint_id')
          .executeTakeFirst();
        if (row) await queued(trx, [row.endpoint_id], now);
        return row !== undefined;
      });
    },
  };
}
