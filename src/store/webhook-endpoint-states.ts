/** An endpoint's state: its signing secret (rotated with an overlap), disabled (with a reason) or enabled. */
import { type Kysely, sql } from 'kysely';
import type { Scope } from '../domain/scope.js';
import type { WebhookEndpoint } from '../domain/webhooks.js';
import type { Database } from './tables.js';
import { ENDPOINT_COLUMNS, toEndpoint } from './webhook-rows.js';

export function createWebhookEndpointStates(db: Kysely<Database>) {
  return {
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
  };
}
