/**
 * The record of attempts: each one recorded with a conditional update, so an attempt is recorded
 * once; whether an endpoint took any lately; the retention of those that ended; the queue's
 * figures for /metrics.
 */
import type { Kysely } from 'kysely';
import type { DeliveryStatus } from '../domain/webhooks.js';
import type { Database } from './tables.js';

/** What one attempt left: the next state of the delivery. */
export interface AttemptRecord {
  status: DeliveryStatus;
  at: number;
  nextAttemptAt: number;
  httpStatus: number | null;
  error: string | null;
  response: string | null;
}

export function createWebhookAttempts(db: Kysely<Database>) {
  return {
    /** Records attempt number `attempt`; false when another process recorded it first (or the delivery left `pending`). */
    async recordAttempt(id: string, attempt: number, record: AttemptRecord): Promise<boolean> {
      const result = await db
        .updateTable('webhook_deliveries')
        .set({
          status: record.status,
          attempts: attempt,
          last_attempt_at: record.at,
          next_attempt_at: record.nextAttemptAt,
          last_status: record.httpStatus,
          last_error: record.error,
          last_response: record.response,
          finished_at: record.status === 'pending' ? null : record.at,
        })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where('attempts', '=', attempt - 1)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Whether the endpoint took any delivery at or after `since` (then it has not been failing all along). */
    async deliveredSince(endpointId: string, since: number): Promise<boolean> {
      const row = await db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('endpoint_id', '=', endpointId)
        .where('status', '=', 'delivered')
        .where('finished_at', '>=', since)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Forgets deliveries that ended (delivered or failed) before `before`, and events none of whose
     * deliveries is left. Pending ones are kept however old. Returns how many deliveries went.
     */
    async pruneFinished(before: number): Promise<number> {
      const result = await db.deleteFrom('webhook_deliveries').where('finished_at', '<', before).where('status', '<>', 'pending').executeTakeFirst();
      await db
        .deleteFrom('webhook_events')
        .where('created_at', '<', before)
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('webhook_deliveries').select('id').whereRef('webhook_deliveries.event_id', '=', 'webhook_events.id'))),
        )
        .execute();
      return Number(result.numDeletedRows);
    },

    /** Pending deliveries and when the oldest was created, for /metrics. */
    async queueStats(): Promise<{ pending: number; oldestCreatedAt: number | null }> {
      const row = await db
        .selectFrom('webhook_deliveries')
        .select((eb) => [eb.fn.countAll<number>().as('pending'), eb.fn.min('created_at').as('oldest')])
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return { pending: Number(row?.pending ?? 0), oldestCreatedAt: row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest) };
    },
  };
}
