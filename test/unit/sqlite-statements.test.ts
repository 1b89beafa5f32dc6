/**
 * The embedded store prepares each SQL text once and keeps it (Kysely would have better-sqlite3
 * prepare every query again): a key lookup repeated is prepared once, and a kept statement still
 * sees new rows and a changed schema.
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
    for (let i = 0; i < 50; i++) expect(await store.accounts.findKeyByHash(hashApiKey(`mgw_${'u'.repeat(40)}${i}`))).toBeUndefined();
    expect(prepare).toHaveBeenCalledTimes(1);
    const { key, keyId } = await issueKey(store, { now: Date.now() });
    expect((await store.accounts.findKeyByHash(hashApiKey(key)))?.keyId).toBe(keyId);
    await store.connection.db.schema.alterTable('api_keys').addColumn('note', 'text').execute();
    expect((await store.accounts.findKeyByHash(hashApiKey(key)))?.keyId).toBe(keyId);
  } finally {
    prepare.mockRestore();
  }
});
