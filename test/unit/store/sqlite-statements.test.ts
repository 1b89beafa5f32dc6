/**
 * The embedded store prepares each SQL text once and keeps it (Kysely would have better-sqlite3
 * prepare every query again): a lookup repeated is prepared once, and a kept statement still sees
 * new rows and a changed schema. The key lookup runs on the raw handle (src/store/key-lookup.ts):
 * it sees committed keys at once and never the uncommitted rows of a transaction open on the
 * same connection. Keys asked for in the same turn of the event loop are read in one read
 * transaction (each transaction costs more than the lookup itself).
 */
import path from 'node:path';
import { ModuleMocker } from 'jest-mock';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { hashApiKey } from '../../../src/auth/api-key.js';
import { SQLITE_FILE } from '../../../src/store/database.js';
import { createStore, openStore, type Store } from '../../../src/store/index.js';
import { createKeyLookup } from '../../../src/store/key-lookup.js';
import type { Database } from '../../../src/store/tables.js';
import { tempDataDir } from '../../support/engines.js';
import { issueKey } from '../../support/keys.js';

const mocks = new ModuleMocker(globalThis);

let store: Store;
const dataDir = tempDataDir();
beforeAll(async () => {
  store = createStore(await openStore({ dataDir }));
});
afterAll(() => store?.connection.close());

it('prepares a repeated query once, and the kept statement sees rows written after it was prepared', async () => {
  const sqlite = store.connection.sqlite!;
  const prepare = mocks.spyOn(sqlite, 'prepare');
  try {
    for (let i = 0; i < 50; i++) expect(await store.accounts.findKeyById(`key_missing${i}`)).toBeUndefined();
    expect(prepare).toHaveBeenCalledTimes(1);
    const { keyId } = await issueKey(store, { now: Date.now() });
    expect((await store.accounts.findKeyById(keyId))?.id).toBe(keyId);
    await store.connection.db.schema.alterTable('api_keys').addColumn('note', 'text').execute();
    expect((await store.accounts.findKeyById(keyId))?.id).toBe(keyId);
  } finally {
    prepare.mockRestore();
  }
});

it('looks a key up without preparing anything, and sees a key as soon as it is committed', async () => {
  const prepare = mocks.spyOn(store.connection.sqlite!, 'prepare');
  try {
    for (let i = 0; i < 20; i++) expect(await store.accounts.findKeyByHash(hashApiKey(`mgw_${'u'.repeat(40)}${i}`))).toBeUndefined();
    const { key, keyId, accountId } = await issueKey(store, { now: Date.now() });
    expect(await store.accounts.findKeyByHash(hashApiKey(key))).toMatchObject({ keyId, keyHash: hashApiKey(key), revokedAt: null, account: { id: accountId } });
    expect(prepare).not.toHaveBeenCalledWith(expect.stringContaining('"key_hash" = ?'));
  } finally {
    prepare.mockRestore();
  }
});

it('does not see a key inserted by a transaction still open on the connection (rolled back, it never existed)', async () => {
  const key = `mgw_${'t'.repeat(40)}open`;
  let lookupDuring: Promise<unknown> | undefined;
  await store.connection.db
    .transaction()
    .execute(async (trx) => {
      const accountId = 'acct_in_transaction';
      await trx
        .insertInto('accounts')
        .values({ id: accountId, name: 'in a transaction', market_data_plan: 'pro', prediction_plan: 'none', created_at: 1 })
        .execute();
      await trx
        .insertInto('api_keys')
        .values({ id: 'key_in_transaction', account_id: accountId, display_prefix: key.slice(0, 10), key_hash: hashApiKey(key), name: 'k', created_at: 1 })
        .execute();
      // Asked while the transaction is open (between two of its statements): it waits for the connection.
      lookupDuring = store.accounts.findKeyByHash(hashApiKey(key));
      await new Promise((resolve) => setImmediate(resolve));
      throw new Error('roll back');
    })
    .catch((error: Error) => expect(error.message).toBe('roll back'));
  expect(await lookupDuring).toBeUndefined();
  expect(await store.accounts.findKeyByHash(hashApiKey(key))).toBeUndefined();
});

it('reads the keys asked for in one turn in one read transaction, each with its own answer', async () => {
  const issued = await Promise.all([1, 2, 3].map(() => issueKey(store, { now: Date.now() })));
  // A second connection to the same file, whose statements are logged as SQLite runs them.
  const statements: string[] = [];
  const handle = new BetterSqlite3(path.join(dataDir, SQLITE_FILE), { verbose: (sql) => statements.push(String(sql)) });
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: handle }) });
  try {
    const lookup = createKeyLookup(db, handle);
    const unknown = hashApiKey(`mgw_${'n'.repeat(40)}`);
    const asked = [hashApiKey(issued[0]!.key), unknown, hashApiKey(issued[1]!.key), hashApiKey(issued[2]!.key)];
    const found = await Promise.all(asked.map((keyHash) => lookup(keyHash)));
    expect(found.map((key) => key?.keyId)).toEqual([issued[0]!.keyId, undefined, issued[1]!.keyId, issued[2]!.keyId]);
    expect(found.map((key) => key?.account.id)).toEqual([issued[0]!.accountId, undefined, issued[1]!.accountId, issued[2]!.accountId]);
    expect(statements.filter((sql) => sql === 'BEGIN')).toHaveLength(1);
    expect(statements.filter((sql) => sql.includes('"key_hash" ='))).toHaveLength(4);

    // Asked in separate turns: one statement each, without a transaction around a single lookup.
    statements.length = 0;
    expect((await lookup(asked[2]!))?.keyId).toBe(issued[1]!.keyId);
    expect(await lookup(unknown)).toBeUndefined();
    expect(statements).toEqual([expect.stringContaining('"key_hash" ='), expect.stringContaining('"key_hash" =')]);
  } finally {
    await db.destroy();
  }
});
