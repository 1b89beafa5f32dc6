/**
 * The lookup of a key by its hash, run for every key an instance has not cached yet: with 100 000
 * keys in rotation it is the request's largest cost, so each engine gets the shape that is cheapest
 * there (docs/performance.md, "Keys at scale").
 * - PostgreSQL: one join, compiled once (one round trip).
 * - SQLite: two single-index statements on the raw handle, run synchronously. The join cost about
 *   twice as much: SQLite re-plans it whenever the bound hash changes. Kysely's queue is skipped
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

  const keyStatement = sqlite.prepare<[string], KeyRow>(keyQuery.compile().sql);
  const accountStatement = sqlite.prepare<[string], LookedUpAccount>(
    db.selectFrom('accounts').select(ACCOUNT_COLUMNS).where('accounts.id', '=', '').compile().sql,
  );
  return async (keyHash) => {
    if (sqlite.inTransaction) return viaKysely(keyHash);
    const key = keyStatement.get(keyHash);
    const account = key && accountStatement.get(key.account_id);
    return key && account ? toKey(key, account) : undefined;
  };
}
