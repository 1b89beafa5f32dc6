/** A dashboard user's two-factor sign-in: the secret being set up, turned on or off, and its recovery codes. */
import type { Kysely } from 'kysely';
import type { Database } from './tables.js';

export function createUserTwoFactor(db: Kysely<Database>) {
  return {
    /** Stores a secret being set up (two-factor stays off until `enableTotp`). */
    async setPendingTotp(userId: string, secret: string): Promise<void> {
      await db.updateTable('users').set({ totp_secret: secret, totp_enabled_at: null }).where('id', '=', userId).execute();
    },

    /** Turns two-factor on and replaces the recovery codes, in one transaction. */
    async enableTotp(userId: string, recoveryCodeHashes: readonly string[], now: number): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ totp_enabled_at: now }).where('id', '=', userId).execute();
        await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
        if (recoveryCodeHashes.length > 0) {
          await trx
            .insertInto('recovery_codes')
            .values(recoveryCodeHashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null })))
            .execute();
        }
      });
    },

    async disableTotp(userId: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ totp_secret: null, totp_enabled_at: null }).where('id', '=', userId).execute();
        await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      });
    },

    /** Uses a recovery code once; false when it is unknown or used already. */
    async spendRecoveryCode(userId: string, codeHash: string, now: number): Promise<boolean> {
      const result = await db
        .updateTable('recovery_codes')
        .set({ used_at: now })
        .where('user_id', '=', userId)
        .where('code_hash', '=', codeHash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async unusedRecoveryCodes(userId: string): Promise<number> {
      const row = await db
        .selectFrom('recovery_codes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  };
}
