/** Keys as they are read: an account's keys with their last use, one key by its hash or id, every key. */
import type BetterSqlite3 from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import type { Account, MarketDataPlan, PredictionPlan } from '../domain/account.js';
import { toAccount } from './account-rows.js';
import { type ApiKeyRecord, toKeyRecord } from './api-keys.js';
import { createKeyLookup } from './key-lookup.js';
import type { Database } from './tables.js';

/** A key of one account, with when it was last used (null: never, or not since the usage records began). */
export interface AccountKey extends ApiKeyRecord {
  lastUsedAt: number | null;
}

export interface ApiKeyListing extends ApiKeyRecord {
  marketDataPlan: MarketDataPlan;
  predictionPlan: PredictionPlan;
}

export function createApiKeyReads(db: Kysely<Database>, sqlite?: BetterSqlite3.Database) {
  const findKeyByHash = createKeyLookup(db, sqlite);

  return {
    /** The keys of an account, oldest first, each with its last use (from the usage records). */
    async keysOfAccount(accountId: string): Promise<AccountKey[]> {
      const rows = await db
        .selectFrom('api_keys')
        .leftJoin(
          (eb) =>
            eb
              .selectFrom('usage_days')
              .select(['usage_days.key_id', sql<number>`max(usage_days.last_at)`.as('last_used_at')])
              .where('usage_days.account_id', '=', accountId)
              .groupBy('usage_days.key_id')
              .as('used'),
          (join) => join.onRef('used.key_id', '=', 'api_keys.id'),
        )
        .selectAll('api_keys')
        .select('used.last_used_at')
        .where('api_keys.account_id', '=', accountId)
        .orderBy('api_keys.created_at', 'asc')
        .orderBy('api_keys.id', 'asc')
        .execute();
      return rows.map((row) => ({ ...toKeyRecord(row), lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at) }));
    },

    /** Run for every key this instance has not seen yet (the authenticator's cache misses). */
    findKeyByHash,

    async findKeyById(keyId: string): Promise<(ApiKeyRecord & { account: Account }) | undefined> {
      const row = await db
        .selectFrom('api_keys')
        .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
        .selectAll('api_keys')
        .select(['accounts.market_data_plan', 'accounts.prediction_plan', 'accounts.name as account_name'])
        .where('api_keys.id', '=', keyId)
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        ...toKeyRecord(row),
        account: toAccount({ ...row, id: row.account_id, name: row.account_name }),
      };
    },

    async listKeys(): Promise<ApiKeyListing[]> {
      const rows = await db
        .selectFrom('api_keys')
        .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
        .selectAll('api_keys')
        .select(['accounts.market_data_plan', 'accounts.prediction_plan'])
        .orderBy('api_keys.created_at', 'asc')
        .orderBy('api_keys.id', 'asc')
        .execute();
      return rows.map((row) => ({
        ...toKeyRecord(row),
        marketDataPlan: row.market_data_plan as MarketDataPlan,
        predictionPlan: row.prediction_plan as PredictionPlan,
      }));
    },
  };
}
