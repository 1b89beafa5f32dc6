/**
 * What the delivery worker finds due: the endpoints with a delivery due (`next_due_at`), then each
 * one's due deliveries (a partial index of pending ones per endpoint); and an endpoint's
 * `next_due_at` set again once its attempts are recorded.
 */
import type { Kysely } from 'kysely';
import type { Database } from './tables.js';

/** An endpoint with a delivery due: where to send, and the secrets that sign. */
export interface DueEndpoint {
  id: string;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: number | null;
}

/** A due delivery with what an attempt needs. */
export interface DueDelivery {
  id: string;
  endpointId: string;
  body: string;
  attempts: number;
  createdAt: number;
  /** The W3C `traceparent` of the span that wrote its event, for the attempt's span to link to. */
  traceParent: string | null;
}

export function createWebhookQueue(db: Kysely<Database>) {
  return {
    /** Endpoints with a delivery due at `now`, the earliest first, leaving out `busy` ones (at their concurrency cap). */
    async dueEndpoints(now: number, limit: number, busy: readonly string[]): Promise<DueEndpoint[]> {
      let query = db
        .selectFrom('webhook_endpoints')
        .select(['id', 'url', 'secret', 'previous_secret', 'previous_secret_until'])
        .where('next_due_at', '<=', now)
        .where('disabled_at', 'is', null);
      if (busy.length > 0) query = query.where('id', 'not in', busy);
      const rows = await query.orderBy('next_due_at').limit(limit).execute();
      return rows.map((r) => ({ id: r.id, url: r.url, secret: r.secret, previousSecret: r.previous_secret, previousSecretUntil: r.previous_secret_until }));
    },

    /** One endpoint's deliveries due at `now`, the earliest first, leaving out those being attempted (`inFlight`). */
    async dueDeliveries(endpointId: string, now: number, limit: number, inFlight: readonly string[]): Promise<DueDelivery[]> {
      let query = db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_events as ev', 'ev.id', 'd.event_id')
        .select(['d.id', 'd.endpoint_id', 'ev.body', 'd.attempts', 'd.created_at', 'ev.trace_parent'])
        .where('d.endpoint_id', '=', endpointId)
        .where('d.status', '=', 'pending')
        .where('d.next_attempt_at', '<=', now);
      if (inFlight.length > 0) query = query.where('d.id', 'not in', inFlight);
      const rows = await query.orderBy('d.next_attempt_at').orderBy('d.seq').limit(limit).execute();
      return rows.map((r) => ({
        id: r.id,
        endpointId: r.endpoint_id,
        body: r.body,
        attempts: r.attempts,
        createdAt: r.created_at,
        traceParent: r.trace_parent,
      }));
    },

    /**
     * Sets an endpoint's `next_due_at` to its earliest pending delivery (null when none), unless a
     * delivery was queued meanwhile (the version moved): then it stays as low as that one made it.
     */
    async refreshNextDue(endpointId: string): Promise<void> {
      const before = await db.selectFrom('webhook_endpoints').select('queue_version').where('id', '=', endpointId).executeTakeFirst();
      if (!before) return;
      const earliest = await db
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.min('next_attempt_at').as('at'))
        .where('endpoint_id', '=', endpointId)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      const at = earliest?.at === null || earliest?.at === undefined ? null : Number(earliest.at);
      await db
        .updateTable('webhook_endpoints')
        .set({ next_due_at: at })
        .where('id', '=', endpointId)
        .where('queue_version', '=', before.queue_version)
        .execute();
    },
  };
}
