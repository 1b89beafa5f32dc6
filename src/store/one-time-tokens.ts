/** One-time links (invitations, password resets, email verification): only their hash is stored, each is used once. */
import type { Kysely } from 'kysely';
import type { Database } from './tables.js';

export type OneTimeTokenKind = 'invite' | 'reset' | 'verify';

export interface OneTimeToken {
  kind: OneTimeTokenKind;
  email: string;
  accountId: string | null;
  expiresAt: number;
}

export function createOneTimeTokenRepository(db: Kysely<Database>) {
  return {
    async issue(input: OneTimeToken & { tokenHash: string; now: number }): Promise<void> {
      await db
        .insertInto('one_time_tokens')
        .values({
          token_hash: input.tokenHash,
          kind: input.kind,
          email: input.email,
          account_id: input.accountId,
          created_at: input.now,
          expires_at: input.expiresAt,
          used_at: null,
        })
        .execute();
    },

    /** A token of `kind` that is neither used nor expired, without using it. */
    async peek(tokenHash: string, kind: OneTimeTokenKind, now: number): Promise<OneTimeToken | undefined> {
      const row = await db
        .selectFrom('one_time_tokens')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .where('kind', '=', kind)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return row ? { kind, email: row.email, accountId: row.account_id, expiresAt: row.expires_at } : undefined;
    },

    /** Uses a token once: true for the one caller that used it. */
    async use(tokenHash: string, now: number): Promise<boolean> {
      const result = await db
        .updateTable('one_time_tokens')
        .set({ used_at: now })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}

export type OneTimeTokenRepository = ReturnType<typeof createOneTimeTokenRepository>;
