/**
 * What running servers must learn of: an account's plans or status changed, a key revoked; the
 * poll that tells them (`keyChangesSince`).
 */
import { type Kysely, sql } from 'kysely';
import type { Account, MarketDataPlan, PredictionPlan } from '../domain/account.js';
import { ACCOUNT_COLUMNS, toAccount } from './account-rows.js';
import type { Database } from './tables.js';

/** A key whose cached entry running servers must drop: it was revoked, or its account changed. */
export interface KeyChange {
  keyHash: string;
  /** When the key was revoked or its account changed. */
  at: number;
}

export function createAccountChanges(db: Kysely<Database>) {
  return {
    /** Changes either plan or both; undefined when the account does not exist. Running servers re-read its keys (`keyChangesSince`). */
    async setPlans(accountId: string, plans: { marketDataPlan?: MarketDataPlan; predictionPlan?: PredictionPlan }, now: number): Promise<Account | undefined> {
      const row = await db
        .updateTable('accounts')
        .set({
          ...(plans.marketDataPlan ? { market_data_plan: plans.marketDataPlan } : {}),
          ...(plans.predictionPlan ? { prediction_plan: plans.predictionPlan } : {}),
          changed_at: now,
        })
        .where('id', '=', accountId)
        .returning(ACCOUNT_COLUMNS)
        .executeTakeFirst();
      return row ? toAccount(row) : undefined;
    },

    /**
     * Disables an account (disabling twice keeps the first time) or enables it; false when it does not
     * exist. Running servers refuse or admit its keys again within their poll (`keyChangesSince`).
     */
    async setDisabled(accountId: string, disabled: boolean, now: number): Promise<boolean> {
      const result = await db
        .updateTable('accounts')
        .set({ disabled_at: disabled ? sql<number>`coalesce(disabled_at, ${now})` : null, changed_at: now })
        .where('id', '=', accountId)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /**
     * Hashes of the keys revoked after `since` (exclusive), and of the unrevoked keys of accounts whose
     * plans or status changed after it: how running servers learn to drop what they cached. One round trip.
     */
    async keyChangesSince(since: number): Promise<KeyChange[]> {
      const rows = await db
        .selectFrom('api_keys')
        .select(['api_keys.key_hash', 'api_keys.revoked_at as at'])
        .where('api_keys.revoked_at', '>', since)
        .unionAll(
          db
            .selectFrom('accounts')
            .innerJoin('api_keys', 'api_keys.account_id', 'accounts.id')
            .select(['api_keys.key_hash', 'accounts.changed_at as at'])
            .where('accounts.changed_at', '>', since)
            .where('api_keys.revoked_at', 'is', null),
        )
        .execute();
      return rows.map((r) => ({ keyHash: r.key_hash, at: Number(r.at ?? since) }));
    },
  };
}
