/** The set of an account's webhook endpoints: creating, counting, listing, finding and deleting them. */
import type { Kysely } from 'kysely';
import { newId } from '../domain/ids.js';
import type { Scope } from '../domain/scope.js';
import type { SubscribableEventType, WebhookEndpoint } from '../domain/webhooks.js';
import type { Database } from './tables.js';
import { ENDPOINT_COLUMNS, toEndpoint } from './webhook-rows.js';

export function createWebhookEndpoints(db: Kysely<Database>) {
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
  };
}
