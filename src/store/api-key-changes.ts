/** Keys added (within a limit of live ones), revoked, or exempted from trusted-document enforcement. */
import type { Kysely } from 'kysely';
import type { Account } from '../domain/account.js';
import { readAccount } from './account-rows.js';
import { type ActivityEntry, insertActivity } from './activity.js';
import { type ApiKeyRecord, countLive, insertKey, type NewKey } from './api-keys.js';
import type { Database } from './tables.js';

export function createApiKeyChanges(db: Kysely<Database>) {
  return {
    /** Another key on an existing account (a rotation without downtime); undefined when the account does not exist. */
    async addKey(input: NewKey & { accountId: string }): Promise<{ account: Account; key: ApiKeyRecord } | undefined> {
      const account = await readAccount(db, input.accountId);
      return account ? { account, key: await insertKey(db, input.accountId, input) } : undefined;
    },

    /**
     * Another key on an existing account unless it has `maxLive` live keys already ('full'); undefined
     * when the account does not exist. The account's row is locked first (a write lock on SQLite), so
     * two fronts adding keys at once are counted one after the other and cannot pass the limit together.
     * `activity` is the log's entry for the new key, written in the same transaction.
     */
    async addKeyWithin(
      input: NewKey & { accountId: string; maxLive: number },
      activity?: (key: ApiKeyRecord) => ActivityEntry,
    ): Promise<{ account: Account; key: ApiKeyRecord } | 'full' | undefined> {
      return db.transaction().execute(async (trx) => {
        const locked = await trx
          .updateTable('accounts')
          .set((eb) => ({ name: eb.ref('name') }))
          .where('id', '=', input.accountId)
          .executeTakeFirst();
        const account = locked.numUpdatedRows > 0n ? await readAccount(trx, input.accountId) : undefined;
        if (!account) return undefined;
        if ((await countLive(trx, input.accountId, input.now)) >= input.maxLive) return 'full';
        const key = await insertKey(trx, input.accountId, input);
        if (activity) await insertActivity(trx, activity(key));
        return { account, key };
      });
    },

    /** Keys neither revoked nor expired at `now`. */
    countLiveKeys: (accountId: string, now: number): Promise<number> => countLive(db, accountId, now),

    /** Returns false when the key does not exist; revoking twice keeps the first time. */
    async revokeKey(keyId: string, now: number): Promise<boolean> {
      const exists = await db.selectFrom('api_keys').select('id').where('id', '=', keyId).executeTakeFirst();
      if (!exists) return false;
      await db.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', keyId).where('revoked_at', 'is', null).execute();
      return true;
    },

    /**
     * Exempts a key from trusted-document enforcement, or ends its exemption; false when the key does
     * not exist. Running servers see it when their cached entry of the key expires (KEY_CACHE_TTL_MS).
     */
    async setAnyOperation(keyId: string, anyOperation: boolean): Promise<boolean> {
      const result = await db
        .updateTable('api_keys')
        .set({ any_operation: anyOperation ? 1 : 0 })
        .where('id', '=', keyId)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}
