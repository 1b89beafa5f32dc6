/** Accounts and their API keys. */
import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely, Selectable } from 'kysely';
import type { Account, MarketDataPlan, PredictionPlan } from '../domain/account.js';
import { newId } from '../domain/ids.js';
import { toAccount } from './account-rows.js';
import { createKeyLookup } from './key-lookup.js';
import type { ApiKeysTable, Database } from './tables.js';

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  displayPrefix: string;
  name: string;
  createdAt: number;
  revokedAt: number | null;
  /** Exempt from trusted-document enforcement: the key may send any GraphQL operation. */
  anyOperation: boolean;
}

export interface ApiKeyListing extends ApiKeyRecord {
  marketDataPlan: MarketDataPlan;
  predictionPlan: PredictionPlan;
}

function toKeyRecord(row: Selectable<ApiKeysTable>): ApiKeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    displayPrefix: row.display_prefix,
    name: row.name,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    anyOperation: row.any_operation === 1,
  };
}

interface NewKey {
  name: string;
  keyHash: string;
  displayPrefix: string;
  now: number;
  /** Exempt the key from trusted-document enforcement (false by default). */
  anyOperation?: boolean;
}

/** Writes a new key of `accountId`; only the hash of the key is stored. */
async function insertKey(db: Kysely<Database>, accountId: string, input: NewKey): Promise<ApiKeyRecord> {
  const key: ApiKeyRecord = {
    id: newId('key'),
    accountId,
    displayPrefix: input.displayPrefix,
    name: input.name,
    createdAt: input.now,
    revokedAt: null,
    anyOperation: input.anyOperation ?? false,
  };
  await db
    .insertInto('api_keys')
    .values({
      id: key.id,
      account_id: accountId,
      display_prefix: key.displayPrefix,
      key_hash: input.keyHash,
      name: key.name,
      created_at: key.createdAt,
      revoked_at: null,
      any_operation: key.anyOperation ? 1 : 0,
    })
    .execute();
  return key;
}

export function createAccountRepository(db: Kysely<Database>, sqlite?: BetterSqlite3.Database) {
  const findAccount = async (id: string): Promise<Account | undefined> => {
    const row = await db.selectFrom('accounts').select(['id', 'name', 'market_data_plan', 'prediction_plan']).where('id', '=', id).executeTakeFirst();
    return row ? toAccount(row) : undefined;
  };

  const alertsVersionQuery = db.selectFrom('accounts').select('alerts_version').where('id', '=', '').compile();
  const findKeyByHash = createKeyLookup(db, sqlite);

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

    /** Another key on an existing account (a rotation without downtime); undefined when the account does not exist. */
    async addKey(input: NewKey & { accountId: string }): Promise<{ account: Account; key: ApiKeyRecord } | undefined> {
      const account = await findAccount(input.accountId);
      return account ? { account, key: await insertKey(db, input.accountId, input) } : undefined;
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

    /** Hashes of keys revoked after `since` (exclusive): how running servers learn of revocations. */
    async revokedSince(since: number): Promise<{ keyHash: string; revokedAt: number }[]> {
      const rows = await db.selectFrom('api_keys').select(['key_hash', 'revoked_at']).where('revoked_at', '>', since).execute();
      return rows.map((r) => ({ keyHash: r.key_hash, revokedAt: r.revoked_at ?? since }));
    },
  };
}

export type AccountRepository = ReturnType<typeof createAccountRepository>;
