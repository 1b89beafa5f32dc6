/**
 * The revocation poll (`keyChangesSince`), which every instance runs once a second, reads only what
 * changed: revoked keys through the index of revoked keys, changed accounts through their
 * `changed_at`, never a walk of every live key. With a full index on `revoked_at`, SQLite's planner
 * walked the live keys for `revoked_at IS NULL` (35 ms a poll with 100 000 keys, the event loop
 * blocked meanwhile). Checked on the plan of the very query the repository sends, on SQLite, whose
 * planner has no statistics to go by; the answer on both engines.
 */
import { type Kysely, type KyselyPlugin, type PluginTransformQueryArgs, type RootOperationNode, sql } from 'kysely';
import { hashApiKey } from '../../src/auth/api-key.js';
import { createAccountRepository } from '../../src/store/accounts.js';
import { migrateToLatest } from '../../src/store/migrations.js';
import { describeOnEachEngine } from '../support/store-suite.js';

const KEYS = 3_000;
const keyOf = (i: number) => `mgw_${String(i).padStart(40, '0')}poll`;

/** Keeps the last query a repository sends, to explain it. */
function capturing(): KyselyPlugin & { last?: RootOperationNode } {
  const plugin: KyselyPlugin & { last?: RootOperationNode } = {
    transformQuery({ node }: PluginTransformQueryArgs) {
      plugin.last = node;
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return plugin;
}

describeOnEachEngine('the revocation poll', (suite) => {
  beforeAll(async () => {
    if (!suite.enabled) return;
    const { db } = suite.store.connection;
    for (let start = 0; start < KEYS; start += 500) {
      const ids = Array.from({ length: 500 }, (_, j) => start + j);
      await db
        .insertInto('accounts')
        .values(ids.map((i) => ({ id: `acct_poll${i}`, name: `poll ${i}`, market_data_plan: 'free', prediction_plan: 'none', created_at: 1_000 })))
        .execute();
      await db
        .insertInto('api_keys')
        .values(
          ids.map((i) => ({
            id: `key_poll${i}`,
            account_id: `acct_poll${i}`,
            display_prefix: keyOf(i).slice(0, 12),
            key_hash: hashApiKey(keyOf(i)),
            name: `poll ${i}`,
            created_at: 1_000,
          })),
        )
        .execute();
    }
    await suite.store.accounts.setPlans('acct_poll7', { marketDataPlan: 'pro' }, 5_000);
    await suite.store.accounts.revokeKey('key_poll9', 6_000);
  });

  suite.maybe('answers the keys of changed accounts and the keys revoked since, and nothing older', async () => {
    const changes = await suite.store.accounts.keyChangesSince(4_000);
    expect(changes).toHaveLength(2);
    expect(changes).toEqual(
      expect.arrayContaining([
        { keyHash: hashApiKey(keyOf(7)), at: 5_000 },
        { keyHash: hashApiKey(keyOf(9)), at: 6_000 },
      ]),
    );
    expect(await suite.store.accounts.keyChangesSince(6_000)).toEqual([]);
  });

  suite.maybe('its migration runs again safely after a start stopped halfway (the old index dropped, the new one not made)', async () => {
    const { db, engine } = suite.store.connection;
    await sql`drop index api_keys_revoked_at`.execute(db);
    // Stopped in 0014, a start never reached the migrations after it: they run again too.
    await sql`delete from kysely_migration where name >= '0014_revoked_keys_index'`.execute(db);
    await migrateToLatest(db as unknown as Kysely<unknown>, engine);
    expect(await suite.store.accounts.keyChangesSince(4_000)).toHaveLength(2);
    const definition =
      engine === 'sqlite'
        ? (await sql<{ sql: string }>`select sql from sqlite_master where name = 'api_keys_revoked_at'`.execute(db)).rows[0]?.sql
        : (
            await sql<{
              sql: string;
            }>`select indexdef as sql from pg_indexes where indexname = 'api_keys_revoked_at' and schemaname = current_schema()`.execute(db)
          ).rows[0]?.sql;
    expect(definition).toMatch(/where.*revoked_at.*is not null/i);
  });

  // PostgreSQL plans by its statistics (autovacuum's ANALYZE); the answer above is checked there too.
  if (suite.engine.name !== 'sqlite') return;
  suite.maybe('finds them through indexes: no walk of the live keys', async () => {
    const { db } = suite.store.connection;
    const sqlite = suite.store.connection.sqlite!;
    const plugin = capturing();
    await createAccountRepository(db.withPlugin(plugin), sqlite).keyChangesSince(4_000);
    const compiled = db.getExecutor().compileQuery(plugin.last!, { queryId: 'poll' });
    const plan = (sqlite.prepare(`explain query plan ${compiled.sql}`).all(...compiled.parameters) as { detail: string }[]).map((r) => r.detail);
    console.log(`the revocation poll's plan:\n${plan.join('\n')}`);
    expect(plan.join('\n')).toMatch(/SEARCH accounts USING INDEX accounts_changed_at/);
    expect(plan.join('\n')).toMatch(/SEARCH api_keys USING INDEX api_keys_account/);
    // Neither a scan of the keys nor an equality lookup of `revoked_at` (IS NULL matches every live key).
    expect(plan.join('\n')).not.toMatch(/SCAN api_keys|revoked_at=\?/);
  });
});
