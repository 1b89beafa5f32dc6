/** Accounts and their API keys: one module per concern, composed over one handle. */
import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Account, MarketDataPlan, PredictionPlan } from '../domain/account.js';
import { newId } from '../domain/ids.js';
import { createAccountChanges } from './account-changes.js';
import { readAccount } from './account-rows.js';
import { createAccountSummaries } from './account-summaries.js';
import { createApiKeyChanges } from './api-key-changes.js';
import { createApiKeyReads } from './api-key-reads.js';
import { type ApiKeyRecord, insertKey, type NewKey } from './api-keys.js';
import type { Database } from './tables.js';

export type { KeyChange } from './account-changes.js';
export type { AccountSummary } from './account-summaries.js';
export type { AccountKey, ApiKeyListing } from './api-key-reads.js';
export type { ApiKeyRecord, NewKey } from './api-keys.js';

export function createAccountRepository(db: Kysely<Database>, sqlite?: BetterSqlite3.Database) {
  const findAccount = (id: string, trx: Kysely<Database> = db): Promise<Account | undefined> => readAccount(trx, id);
  const alertsVersionQuery = db.selectFrom('accounts').select('alerts_version').where('id', '=', '').compile();

  return {
    /** One account per key created by the CLI: quotas are per account (D2). */
    async createAccountWithKey(
      input: NewKey & { marketDataPlan: MarketDataPlan; predictionPlan: PredictionPlan },
    ): Promise<{ account: Account; key: ApiKeyRecord }> {
      const account: Account = {
        id: newId('acct'),
        name: input.name,
        marketDataPlan: input.marketDataPlan,
        predictionPlan: input.predictionPlan,
      };
      const key = await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('accounts')
          .values({
            id: account.id,
            name: account.name,
            market_data_plan: account.marketDataPlan,
            prediction_plan: account.predictionPlan,
            created_at: input.now,
          })
          .execute();
        return insertKey(trx, account.id, input);
      });
      return { account, key };
    },

    findAccount,

    /**
     * The version of the account's price alerts (bumped by each change); 0 for an unknown account.
     * Read on every cached answer about alerts: compiled once, run with the account's id.
     */
    async alertsVersion(accountId: string): Promise<number> {
      const result = await db.executeQuery<{ alerts_version: number }>({ ...alertsVersionQuery, parameters: [accountId] });
      return result.rows[0]?.alerts_version ?? 0;
    },

    ...createApiKeyChanges(db),
    ...createAccountSummaries(db),
    ...createAccountChanges(db),
    ...createApiKeyReads(db, sqlite),
  };
}

export type AccountRepository = ReturnType<typeof createAccountRepository>;
