/** Accounts and their API keys. */
import type BetterSqlite3 from 'better-sqlite3';
import { type ExpressionBuilder, type Kysely, type Selectable, sql } from 'kysely';
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
  /** From then on the key is refused; null: it does not expire. */
  expiresAt: number | null;
  /** Exempt from trusted-document enforcement: the key may send any GraphQL operation. */
  anyOperation: boolean;
}

/** A key of one account, with when it was last used (null: never, or not since the usage records began). */
export interface AccountKey extends ApiKeyRecord {
  lastUsedAt: number | null;
}

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

/** A key whose cached entry running servers must drop: it was revoked, or its account changed. */
export interface KeyChange {
  keyHash: string;
  /** When the key was revoked or its account changed. */
  at: number;
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
    expiresAt: row.expires_at,
    anyOperation: row.any_operation === 1,
  };
}

export interface NewKey {
  name: string;
  keyHash: string;
  displayPrefix: string;
  now: number;
  /** Exempt the key from trusted-document enforcement (false by default). */
  anyOperation?: boolean;
  /** When the key stops working; none by default. */
  expiresAt?: number | null;
}

/** Keys that work at `now`: neither revoked nor expired. */
const liveAt = (now: number) => (eb: ExpressionBuilder<Database, 'api_keys'>) =>
  eb.and([eb('api_keys.revoked_at', 'is', null), eb.or([eb('api_keys.expires_at', 'is', null), eb('api_keys.expires_at', '>', now)])]);

async function countLive(db: Kysely<Database>, accountId: string, now: number): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('api_keys.account_id', '=', accountId)
    .where(liveAt(now))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

const ACCOUNT_COLUMNS = ['id', 'name', 'market_data_plan', 'prediction_plan'] as const;

/** Writes a new key of `accountId`; only the hash of the key is stored. */
async function insertKey(db: Kysely<Database>, accountId: string, input: NewKey): Promise<ApiKeyRecord> {
  const key: ApiKeyRecord = {
    id: newId('key'),
    accountId,
    displayPrefix: input.displayPrefix,
    name: input.name,
    createdAt: input.now,
    revokedAt: null,
    expiresAt: input.expiresAt ?? null,
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
      expires_at: key.expiresAt,
    })
    .execute();
  return key;
}

export function createAccountRepository(db: Kysely<Database>, sqlite?: BetterSqlite3.Database) {
  const findAccount = async (id: string, trx: Kysely<Database> = db): Promise<Account | undefined> => {
    const row = await trx.selectFrom('accounts').select(ACCOUNT_COLUMNS).where('id', '=', id).executeTakeFirst();
    return row ? toAccount(row) : undefined;
  };

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

    /**
     * Another key on an existing account unless it has `maxLive` live keys already ('full'); undefined
     * when the account does not exist. The account's row is locked first (a write lock on SQLite), so
     * two fronts adding keys at once are counted one after the other and cannot pass the limit together.
     */
    async addKeyWithin(input: NewKey & { accountId: string; maxLive: number }): Promise<{ account: Account; key: ApiKeyRecord } | 'full' | undefined> {
      return db.transaction().execute(async (trx) => {
        const locked = await trx
          .updateTable('accounts')
          .set((eb) => ({ name: eb.ref('name') }))
          .where('id', '=', input.accountId)
          .executeTakeFirst();
        const account = locked.numUpdatedRows > 0n ? await findAccount(input.accountId, trx) : undefined;
        if (!account) return undefined;
        if ((await countLive(trx, input.accountId, input.now)) >= input.maxLive) return 'full';
        return { account, key: await insertKey(trx, input.accountId, input) };
      });
    },

    /** Keys neither revoked nor expired at `now`. */
    countLiveKeys: (accountId: string, now: number): Promise<number> => countLive(db, accountId, now),

    /** Every account, oldest first, with its dashboard user's email and its live keys at `now`. */
    async listAccounts(now: number): Promise<AccountSummary[]> {
      return (await summaries(now).execute()).map(toSummary);
    },

    async findAccountSummary(accountId: string, now: number): Promise<AccountSummary | undefined> {
      const row = await summaries(now).where('accounts.id', '=', accountId).executeTakeFirst();
      return row ? toSummary(row) : undefined;
    },

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

export type AccountRepository = ReturnType<typeof createAccountRepository>;
