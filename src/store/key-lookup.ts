/**
 * The lookup of a key by its hash, run for every key an instance has not cached yet: with 100 000
 * keys in rotation it is the request's largest cost, so each engine gets the shape that is cheapest
 * there (docs/performance-log.md, "Keys at scale").
 * - PostgreSQL: one join, compiled once (one round trip).
 * - SQLite: one statement on the raw handle: the key by its hash in a materialized CTE, then its
 *   account by id. A plain join cost twice as much (SQLite re-planned it whenever the bound hash
 *   changed). Kysely's queue is skipped unless a transaction is open on the connection, whose
 *   uncommitted rows the lookup must not see.
 * - SQLite, the keys asked for in one turn of the event loop are read together at the end of that
 *   turn, in one read transaction. Under the bench's load, reading them back to back made each
 *   statement 2 to 2.5 times cheaper than reading each in the middle of its own request (likely
 *   SQLite's code and pages staying in the CPU's caches), and the answers then go out together,
 *   which makes writing them cheaper too; the shared transaction saves the WAL read lock's system
 *   calls on top (docs/performance-log.md, "what reading keys together saves").
 */
import { setImmediate as atEndOfTurn } from 'node:timers';
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

/** Keys read in one read transaction at most: a flood of unknown keys holds it for a few hundred µs, no longer. */
const MAX_KEYS_PER_READ = 256;

interface Waiting {
  keyHash: string;
  resolve(found: KeyWithAccount | undefined): void;
  reject(error: unknown): void;
}

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
  const readTogether = sqlite.transaction((hashes: readonly string[]) => hashes.map((keyHash) => lookupStatement.get(keyHash)));

  let waiting: Waiting[] = [];
  const readWaiting = (): void => {
    const asked = waiting;
    waiting = [];
    // A transaction begun since the keys were asked for: its uncommitted rows stay unseen.
    if (sqlite.inTransaction) {
      for (const w of asked) viaKysely(w.keyHash).then(w.resolve, w.reject);
      return;
    }
    for (let start = 0; start < asked.length; start += MAX_KEYS_PER_READ) {
      const part = asked.slice(start, start + MAX_KEYS_PER_READ);
      let rows: ((KeyRow & LookedUpAccount) | undefined)[];
      try {
        rows = part.length === 1 ? [lookupStatement.get(part[0]!.keyHash)] : readTogether(part.map((w) => w.keyHash));
      } catch (error) {
        for (const w of part) w.reject(error);
        continue;
      }
      part.forEach((w, i) => {
        const row = rows[i];
        w.resolve(row ? toKey(row, row) : undefined);
      });
    }
  };

  return (keyHash) => {
    if (sqlite.inTransaction) return viaKysely(keyHash);
    return new Promise((resolve, reject) => {
      if (waiting.length === 0) atEndOfTurn(readWaiting);
      waiting.push({ keyHash, resolve, reject });
    });
  };
}
