/**
 * The embedded store prepares each SQL text once and keeps it (Kysely would have better-sqlite3
 * prepare every query again): a lookup repeated is prepared once, and a kept statement still sees
 * new rows and a changed schema. The key lookup runs on the raw handle (src/store/key-lookup.ts):
 * it sees committed keys at once and never the uncommitted rows of a transaction open on the
 * same connection.
 */
import { jest } from '@jest/globals';
import { hashApiKey } from '../../src/auth/api-key.js';
import { createStore, openStore, type Store } from '../../src/store/index.js';
import { tempDataDir } from '../support/engines.js';
import { issueKey } from '../support/keys.js';

let store: Store;
beforeAll(async () => {
  store = createStore(await openStore({ dataDir: tempDataDir() }));
});
afterAll(() => store?.connection.close());

it('prepares a repeated query once, and the kept statement sees rows written after it was prepared', async () => {
  const sqlite = store.connection.sqlite!;
  const prepare = jest.spyOn(sqlite, 'prepare');
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
  const prepare = jest.spyOn(store.connection.sqlite!, 'prepare');
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
