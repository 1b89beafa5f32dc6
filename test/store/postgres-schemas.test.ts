/** Several deployments in one PostgreSQL database, one schema each: each migrates and keeps its own data. */
import { createStore, openStore } from '../../src/store/index.js';
import { createPgSchema, postgresAvailable, tempDataDir } from '../support/engines.js';

const maybe = (await postgresAvailable()) ? it : it.skip;

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
