/**
 * The lookup of a key by its hash, run for every key an instance has not cached yet: with 100 000
 * keys in rotation it is the request's largest cost, so each engine gets the shape that is cheapest
 * there (docs/performance.md, "Keys at scale").
 * - PostgreSQL: one join, compiled once (one round trip).
 * - SQLite: one statement on the raw handle, run synchronously: the key by its hash in a
 *   materialized CTE, then its account by id. A plain join cost twice as much (SQLite re-planned it
 *   whenever the bound hash changed), and two statements pay two read transactions (a WAL read
 *   lock taken and released each, two system calls) where one suffices. Kysely's queue is skipped
 *   unless a transaction is open on the connection, whose uncommitted rows the lookup must not see.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Account } from '../domain/account.js';
import { type AccountRow, toAccount } from './account-rows.js';
import type { Database } from './tables.js';

export interface KeyWithAccount {
  keyId: string;
  keyHash: string;
  revokedAt: number | null;
  /** From then on the key is refused; null: it does not expire. */
  expiresAt: number | null;
  anyOperation: boolean;
  account: Account;
  /** The account is disabled: its keys are refused. */
  accountDisabled: boolean;
}

interface KeyRow {
  key_id: string;
  key_hash: string;
  revoked_at: number | null;
  expires_at: number | null;
  any_operation: number;
  account_id: string;
}

type LookedUpAccount = AccountRow & { disabled_at: number | null };

const toKey = (key: KeyRow, account: LookedUpAccount): KeyWithAccount => ({
  keyId: key.key_id,
  keyHash: key.key_hash,
  revokedAt: key.revoked_at,
  expiresAt: key.expires_at,
  anyOperation: key.any_operation === 1,
  account: toAccount(account),
  accountDisabled: account.disabled_at !== null,
});

const KEY_COLUMNS = [
  'api_keys.id as key_id',
  'api_keys.key_hash',
  'api_keys.revoked_at',
  'api_keys.expires_at',
  'api_keys.any_operation',
  'api_keys.account_id',
] as const;
const ACCOUNT_COLUMNS = ['accounts.id', 'accounts.name', 'accounts.market_data_plan', 'accounts.prediction_plan', 'accounts.disabled_at'] as const;

export function createKeyLookup(db: Kysely<Database>, sqlite?: BetterSqlite3.Database): (keyHash: string) => Promise<KeyWithAccount | undefined> {
  const keyQuery = db.selectFrom('api_keys').select(KEY_COLUMNS).where('api_keys.key_hash', '=', '');
  const joinedQuery = keyQuery.innerJoin('accounts', 'accounts.id', 'api_keys.account_id').select(ACCOUNT_COLUMNS).compile();
  const viaKysely = async (keyHash: string) => {
    const row = (await db.executeQuery<KeyRow & LookedUpAccount>({ ...joinedQuery, parameters: [keyHash] })).rows[0];
    return row ? toKey(row, row) : undefined;
  };
  if (!sqlite) return viaKysely;

  const lookupStatement = sqlite.prepare<[string], KeyRow & LookedUpAccount>(
    db
      .with(
        (cte) => cte('key').materialized(),
        (q) => q.selectFrom('api_keys').selectAll().where('api_keys.key_hash', '=', ''),
      )
      .selectFrom('key as api_keys') // the key row under its table's name: the same columns as the join's
      .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
      .select([...KEY_COLUMNS, ...ACCOUNT_COLUMNS])
      .compile().sql,
  );
  return async (keyHash) => {
    if (sqlite.inTransaction) return viaKysely(keyHash);
    const row = lookupStatement.get(keyHash);
    return row ? toKey(row, row) : undefined;
  };
}
