/**
 * Webhook endpoints, the events outbox and the deliveries queue (D11). An event is written in the
 * transaction that caused it (`enqueueEvent`), with one pending delivery per subscribed endpoint.
 * The worker finds the endpoints with a delivery due (`next_due_at`), then each one's due
 * deliveries (a partial index of pending ones per endpoint), and records each attempt with a
 * conditional update, so an attempt is recorded once.
 */
import { type Kysely, type Selectable, sql } from 'kysely';
import { newId } from '../domain/ids.js';
import type { Scope } from '../domain/scope.js';
import {
  type DeliveryStatus,
  type SubscribableEventType,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
  webhookEventBody,
} from '../domain/webhooks.js';
import type { Database, WebhookDeliveriesTable, WebhookEndpointsTable } from './tables.js';

export interface OutboxEvent {
  type: WebhookEventType;
  accountId: string;
  data: unknown;
  at: number;
}

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
}

/** Moves an endpoint's `next_due_at` down to `at` (never up) and says its queue changed. */
const queued = (db: Kysely<Database>, endpointIds: readonly string[], at: number) =>
  db
    .updateTable('webhook_endpoints')
    .set((eb) => ({
      next_due_at: eb.case().when('next_due_at', 'is', null).then(at).when('next_due_at', '>', at).then(at).else(eb.ref('next_due_at')).end(),
      queue_version: eb('queue_version', '+', 1),
    }))
    .where('id', 'in', endpointIds)
    .execute();

/** What one attempt left: the next state of the delivery. */
export interface AttemptRecord {
  status: DeliveryStatus;
  at: number;
  nextAttemptAt: number;
  httpStatus: number | null;
  error: string | null;
  response: string | null;
}

const ENDPOINT_COLUMNS = ['id', 'account_id', 'url', 'events', 'created_at', 'previous_secret_until', 'disabled_at', 'disabled_reason'] as const;

function toEndpoint(row: Pick<Selectable<WebhookEndpointsTable>, (typeof ENDPOINT_COLUMNS)[number]>): WebhookEndpoint {
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

function toDelivery(row: Omit<Selectable<WebhookDeliveriesTable>, 'seq'> & { type: string }): WebhookDelivery {
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

export function createWebhookRepository(db: Kysely<Database>) {
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
    async createEndpoint(input: {
      accountId: string;
      url: string;
      events: readonly SubscribableEventType[];
      secret: string;
      now: number;
    }): Promise<WebhookEndpoint> {
      const row = {
        id: newId('we'),
        account_id: input.accountId,
        url: input.url,
        events: input.events.join(','),
        secret: input.secret,
        previous_secret: null,
        previous_secret_until: null,
        created_at: input.now,
        disabled_at: null,
        disabled_reason: null,
      };
      await db.insertInto('webhook_endpoints').values(row).execute();
      return toEndpoint(row);
    },

    async countEndpoints(accountId: string): Promise<number> {
      const row = await db
        .selectFrom('webhook_endpoints')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /** Oldest first; the operator's scope: every account's. */
    async listEndpoints(scope: Scope): Promise<WebhookEndpoint[]> {
      let query = db.selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS);
      if (scope.kind === 'account') query = query.where('account_id', '=', scope.accountId);
      return (await query.orderBy('seq').execute()).map(toEndpoint);
    },

    /** In an account's scope, only that account's endpoint (another account's is as good as missing). */
    async findEndpoint(id: string, scope: Scope): Promise<WebhookEndpoint | undefined> {
      let query = db.selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS).where('id', '=', id);
      if (scope.kind === 'account') query = query.where('account_id', '=', scope.accountId);
      const row = await query.executeTakeFirst();
      return row ? toEndpoint(row) : undefined;
    },

    /** Deletes an endpoint and its deliveries (pending ones are never sent). Returns it as it was. */
    async deleteEndpoint(id: string, scope: Scope): Promise<WebhookEndpoint | undefined> {
      return db.transaction().execute(async (trx) => {
        let query = trx.selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS).where('id', '=', id);
        if (scope.kind === 'account') query = query.where('account_id', '=', scope.accountId);
        const row = await query.executeTakeFirst();
        if (!row) return undefined;
        await trx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
        await trx.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
        return toEndpoint(row);
      });
    },

    /**
     * A new secret; the current one keeps signing beside it until `previousUntil`. With
     * `ifRotation` (the `previousSecretUntil` the caller saw, 0 before the first rotation) only if
     * no rotation came since, else nothing changes (`rotated: false`): the condition is in the
     * UPDATE itself, so of two such calls at once one rotates, on either engine.
     */
    async rotateSecret(
      id: string,
      secret: string,
      previousUntil: number,
      scope: Scope,
      ifRotation?: number,
    ): Promise<{ endpoint: WebhookEndpoint; rotated: boolean } | undefined> {
      return db.transaction().execute(async (trx) => {
        let query = trx.selectFrom('webhook_endpoints').select(['secret']).where('id', '=', id);
        if (scope.kind === 'account') query = query.where('account_id', '=', scope.accountId);
        const current = await query.executeTakeFirst();
        if (!current) return undefined;
        let update = trx
          .updateTable('webhook_endpoints')
          .set({ secret, previous_secret: current.secret, previous_secret_until: previousUntil })
          .where('id', '=', id);
        if (ifRotation !== undefined) update = update.where(sql<number>`coalesce(previous_secret_until, 0)`, '=', ifRotation);
        const { numUpdatedRows } = await update.executeTakeFirst();
        const row = await trx.selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS).where('id', '=', id).executeTakeFirstOrThrow();
        return { endpoint: toEndpoint(row), rotated: numUpdatedRows > 0n };
      });
    },

    /** Stops an endpoint: its pending deliveries fail with the reason. False if it was already disabled. */
    async disableEndpoint(id: string, reason: string, at: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('webhook_endpoints')
          .set({ disabled_at: at, disabled_reason: reason })
          .where('id', '=', id)
          .where('disabled_at', 'is', null)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) return false;
        await trx
          .updateTable('webhook_deliveries')
          .set({ status: 'failed', finished_at: at, last_error: `endpoint disabled: ${reason}` })
          .where('endpoint_id', '=', id)
          .where('status', '=', 'pending')
          .execute();
        await trx.updateTable('webhook_endpoints').set({ next_due_at: null }).where('id', '=', id).execute();
        return true;
      });
    },

    async enableEndpoint(id: string, scope: Scope): Promise<WebhookEndpoint | undefined> {
      let query = db.updateTable('webhook_endpoints').set({ disabled_at: null, disabled_reason: null }).where('id', '=', id);
      if (scope.kind === 'account') query = query.where('account_id', '=', scope.accountId);
      const row = await query.returning(ENDPOINT_COLUMNS).executeTakeFirst();
      return row ? toEndpoint(row) : undefined;
    },

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
        .select(['d.id', 'd.endpoint_id', 'ev.body', 'd.attempts', 'd.created_at'])
        .where('d.endpoint_id', '=', endpointId)
        .where('d.status', '=', 'pending')
        .where('d.next_attempt_at', '<=', now);
      if (inFlight.length > 0) query = query.where('d.id', 'not in', inFlight);
      const rows = await query.orderBy('d.next_attempt_at').orderBy('d.seq').limit(limit).execute();
      return rows.map((r) => ({ id: r.id, endpointId: r.endpoint_id, body: r.body, attempts: r.attempts, createdAt: r.created_at }));
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

export type WebhookRepository = ReturnType<typeof createWebhookRepository>;
