/** Accounts as operators list them: with their dashboard user's email and their live keys. */
import type { Kysely } from 'kysely';
import type { Account } from '../domain/account.js';
import { toAccount } from './account-rows.js';
import { liveAt } from './api-keys.js';
import type { Database } from './tables.js';

/** An account as operators list it. */
export interface AccountSummary extends Account {
  createdAt: number;
  disabledAt: number | null;
  /** When its plans or status last changed (0: never). */
  changedAt: number;
  /** The email of its dashboard user; null when nobody signs in for it. */
  email: string | null;
  /** Keys neither revoked nor expired. */
  liveKeys: number;
}

export function createAccountSummaries(db: Kysely<Database>) {
  /** Accounts with their dashboard user's email and their live keys at `now`, oldest first. */
  const summaries = (now: number) =>
    db
      .selectFrom('accounts')
      .leftJoin('users', 'users.account_id', 'accounts.id')
      .select([
        'accounts.id',
        'accounts.name',
        'accounts.market_data_plan',
        'accounts.prediction_plan',
        'accounts.created_at',
        'accounts.disabled_at',
        'accounts.changed_at',
        'users.email',
      ])
      .select((eb) =>
        eb
          .selectFrom('api_keys')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('api_keys.account_id', '=', 'accounts.id')
          .where(liveAt(now))
          .as('live_keys'),
      )
      .orderBy('accounts.created_at', 'asc')
      .orderBy('accounts.id', 'asc');
  const toSummary = (row: Awaited<ReturnType<ReturnType<typeof summaries>['executeTakeFirstOrThrow']>>): AccountSummary => ({
    ...toAccount(row),
    createdAt: row.created_at,
    disabledAt: row.disabled_at,
    changedAt: row.changed_at,
    email: row.email,
    liveKeys: Number(row.live_keys ?? 0),
  });

  return {
    /** Every account, oldest first, with its dashboard user's email and its live keys at `now`. */
    async listAccounts(now: number): Promise<AccountSummary[]> {
      return (await summaries(now).execute()).map(toSummary);
    },

    async findAccountSummary(accountId: string, now: number): Promise<AccountSummary | undefined> {
      const row = await summaries(now).where('accounts.id', '=', accountId).executeTakeFirst();
      return row ? toSummary(row) : undefined;
    },
  };
}
