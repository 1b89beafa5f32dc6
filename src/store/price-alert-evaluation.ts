/** What the alert evaluator does with price alerts: reads the active ones, moves one out of `active` once. */
import type { Kysely } from 'kysely';
import type { PriceAlert } from '../domain/account.js';
import { alertsChanged, ALERT_COLUMNS, toAlert } from './price-alert-rows.js';
import type { Database } from './tables.js';
import { enqueueEvent, type OutboxEvent } from './webhook-outbox.js';

export function createPriceAlertEvaluation(db: Kysely<Database>) {
  return {
    async listActive(): Promise<PriceAlert[]> {
      const rows = await db.selectFrom('price_alerts').select(ALERT_COLUMNS).where('status', '=', 'active').execute();
      return rows.map(toAlert);
    },

    /**
     * Moves an alert out of `active` once; returns false if it already left `active`. With `event`,
     * the webhook event it causes is written in the same transaction (the outbox): a crash keeps
     * both or neither.
     */
    async transition(id: string, status: 'triggered' | 'expired', at: number, event?: OutboxEvent): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const moved = await trx
          .updateTable('price_alerts')
          .set(status === 'triggered' ? { status, triggered_at: at } : { status })
          .where('id', '=', id)
          .where('status', '=', 'active')
          .returning('account_id')
          .executeTakeFirst();
        if (!moved) return false;
        await alertsChanged(trx, moved.account_id);
        if (event) await enqueueEvent(trx, event);
        return true;
      });
    },
  };
}
