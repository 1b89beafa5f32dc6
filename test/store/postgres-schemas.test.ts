/**
 * Several deployments in one PostgreSQL database, one schema each: each migrates and keeps its own
 * data. An instance waits for another one's migration however long it takes.
 */
import pg from 'pg';
import { createStore, openStore } from '../../src/store/index.js';
import { createPgSchema, postgresAvailable, tempDataDir } from '../support/engines.js';

const maybe = (await postgresAvailable()) ? it : it.skip;
/** The advisory lock Kysely's PostgreSQL migrator holds while it migrates (kysely/dist/dialect/postgres/postgres-adapter.js). */
const KYSELY_MIGRATION_LOCK = '3853314791062309107';

maybe('migrates a schema while another schema of the database already holds the migration tables', async () => {
  const first = await createPgSchema();
  const second = await createPgSchema();
  const dataDir = tempDataDir();
  try {
    const a = createStore(await openStore({ databaseUrl: first.url, dataDir }));
    await a.prediction.upsertMarkets([{ id: 'demo:a', source: 'demo', question: 'Will A?', url: 'https://example.test/a', topic: null }]);
    await a.prediction.recordObservations([{ marketId: 'demo:a', prob: 0.5, volume24h: 10, observedAt: 1 }]);
    // Opened while the first schema's kysely_migration tables exist: it must create and use its own.
    const b = createStore(await openStore({ databaseUrl: second.url, dataDir }));
    expect(await b.prediction.listMarkets()).toEqual([]);
    expect((await a.prediction.listMarkets()).map((m) => m.id)).toEqual(['demo:a']);
    await Promise.all([a.connection.close(), b.connection.close()]);
  } finally {
    await first.drop();
    await second.drop();
  }
});

maybe('waits for another instance that is migrating longer than a request may take, then opens', async () => {
  const schema = await createPgSchema();
  // Another instance migrating: it holds the lock Kysely's migrator takes (its advisory lock id).
  const other = new pg.Client({ connectionString: schema.url });
  await other.connect();
  await other.query(`select pg_advisory_lock(${KYSELY_MIGRATION_LOCK})`);
  const held = 1_500;
  const released = new Promise<void>((resolve) => setTimeout(resolve, held)).then(() => other.query(`select pg_advisory_unlock(${KYSELY_MIGRATION_LOCK})`));
  try {
    const started = Date.now();
    // Requests on this store are cut at 200 ms; its migrations must not be.
    const store = createStore(await openStore({ databaseUrl: schema.url, dataDir: tempDataDir(), queryTimeoutMs: 200 }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(held - 100);
    expect(await store.prediction.listMarkets()).toEqual([]);
    await store.connection.close();
  } finally {
    await released;
    await other.end();
    await schema.drop();
  }
});
