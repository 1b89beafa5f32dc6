/** People who sign in to the account dashboard (one per account), and their recovery codes. */
import type { Kysely, Selectable, Transaction } from 'kysely';
import { newId } from '../domain/ids.js';
import type { Database, UsersTable } from './tables.js';
import { createUserTwoFactor } from './user-two-factor.js';

export interface User {
  id: string;
  accountId: string;
  email: string;
  passwordHash: string;
  emailVerifiedAt: number | null;
  totpSecret: string | null;
  totpEnabledAt: number | null;
  createdAt: number;
  passwordChangedAt: number;
}

const toUser = (row: Selectable<UsersTable>): User => ({
  id: row.id,
  accountId: row.account_id,
  email: row.email,
  passwordHash: row.password_hash,
  emailVerifiedAt: row.email_verified_at,
  totpSecret: row.totp_secret,
  totpEnabledAt: row.totp_enabled_at,
  createdAt: row.created_at,
  passwordChangedAt: row.password_changed_at,
});

/** Emails are compared in lower case, as they are stored. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** Rolls back a new account whose email is taken. */
class EmailTaken extends Error {}

async function insertUser(
  db: Kysely<Database> | Transaction<Database>,
  input: { accountId: string; email: string; passwordHash: string; now: number; verified?: boolean },
): Promise<User | undefined> {
  const user: User = {
    id: newId('user'),
    accountId: input.accountId,
    email: normalizeEmail(input.email),
    passwordHash: input.passwordHash,
    emailVerifiedAt: input.verified ? input.now : null,
    totpSecret: null,
    totpEnabledAt: null,
    createdAt: input.now,
    passwordChangedAt: input.now,
  };
  const inserted = await db
    .insertInto('users')
    .values({
      id: user.id,
      account_id: user.accountId,
      email: user.email,
      password_hash: user.passwordHash,
      email_verified_at: user.emailVerifiedAt,
      totp_secret: null,
      totp_enabled_at: null,
      created_at: user.createdAt,
      password_changed_at: user.passwordChangedAt,
    })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0 ? user : undefined;
}

export function createUserRepository(db: Kysely<Database>) {
  const byColumn = async (column: 'id' | 'email' | 'account_id', value: string) => {
    const row = await db.selectFrom('users').selectAll().where(column, '=', value).executeTakeFirst();
    return row ? toUser(row) : undefined;
  };

  return {
    findById: (id: string) => byColumn('id', id),
    findByEmail: (email: string) => byColumn('email', normalizeEmail(email)),
    findByAccount: (accountId: string) => byColumn('account_id', accountId),

    /** The sign-in of an existing account; undefined when the email is taken (the unique index decides). */
    create: (input: { accountId: string; email: string; passwordHash: string; now: number; verified?: boolean }) => insertUser(db, input),

    /**
     * A new account (the Free market-data plan, no prediction plan) with its sign-in, in one
     * transaction; undefined, and nothing written, when the email is taken.
     */
    async createWithNewAccount(input: { email: string; passwordHash: string; now: number }): Promise<User | undefined> {
      return db
        .transaction()
        .execute(async (trx) => {
          const accountId = newId('acct');
          await trx
            .insertInto('accounts')
            .values({ id: accountId, name: normalizeEmail(input.email), market_data_plan: 'free', prediction_plan: 'none', created_at: input.now })
            .execute();
          const user = await insertUser(trx, { ...input, accountId });
          if (!user) throw new EmailTaken();
          return user;
        })
        .catch((error: unknown) => {
          if (error instanceof EmailTaken) return undefined;
          throw error;
        });
    },

    async setPassword(userId: string, passwordHash: string, now: number): Promise<void> {
      await db.updateTable('users').set({ password_hash: passwordHash, password_changed_at: now }).where('id', '=', userId).execute();
    },

    async markVerified(userId: string, now: number): Promise<void> {
      await db.updateTable('users').set({ email_verified_at: now }).where('id', '=', userId).where('email_verified_at', 'is', null).execute();
    },

    ...createUserTwoFactor(db),
  };
}

export type UserRepository = ReturnType<typeof createUserRepository>;
