/**
 * Schema migrations, written once with Kysely's schema builder so that the same
 * steps run on SQLite and PostgreSQL. Column types are chosen to mean the same on
 * both: `bigint` (epoch ms), `double precision`, `text`, `integer` for booleans.
 */
import { type ColumnDefinitionBuilder, type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';

export type Engine = 'sqlite' | 'postgres';

/** The one place the engines differ: an auto-incrementing integer key. */
function serialColumn(engine: Engine): [string, (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder] {
  return engine === 'sqlite'
    ? ['integer', (c) => c.primaryKey().autoIncrement()]
    : ['bigserial', (c) => c.primaryKey()];
}

const initial = (engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    const [serialType, serial] = serialColumn(engine);
    await db.schema
      .createTable('accounts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('market_data_plan', 'text', (c) => c.notNull())
      .addColumn('prediction_plan', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('display_prefix', 'text', (c) => c.notNull())
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('revoked_at', 'bigint')
      .execute();
    await db.schema.createIndex('api_keys_revoked_at').on('api_keys').column('revoked_at').execute();
    await db.schema
      .createTable('markets')
      .addColumn('symbol', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('stale_after_ms', 'bigint', (c) => c.notNull())
      .addColumn('halted', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createTable('quotes')
      .addColumn('symbol', 'text', (c) => c.primaryKey().references('markets.symbol'))
      .addColumn('price', 'double precision', (c) => c.notNull())
      .addColumn('change_24h', 'double precision', (c) => c.notNull())
      .addColumn('volume_24h', 'double precision', (c) => c.notNull())
      .addColumn('observed_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('candles')
      .addColumn('symbol', 'text', (c) => c.notNull().references('markets.symbol'))
      .addColumn('interval', 'text', (c) => c.notNull())
      .addColumn('open_time', 'bigint', (c) => c.notNull())
      .addColumn('open', 'double precision', (c) => c.notNull())
      .addColumn('high', 'double precision', (c) => c.notNull())
      .addColumn('low', 'double precision', (c) => c.notNull())
      .addColumn('close', 'double precision', (c) => c.notNull())
      .addColumn('volume', 'double precision', (c) => c.notNull())
      .addPrimaryKeyConstraint('candles_pk', ['symbol', 'interval', 'open_time'])
      .execute();
    await db.schema
      .createTable('price_alerts')
      .addColumn('seq', serialType as 'integer', serial)
      .addColumn('id', 'text', (c) => c.notNull().unique())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('symbol', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('threshold', 'double precision')
      .addColumn('signal', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint')
      .addColumn('triggered_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('price_alerts_account')
      .on('price_alerts')
      .columns(['account_id', 'created_at', 'seq'])
      .execute();
    await db.schema.createIndex('price_alerts_status').on('price_alerts').column('status').execute();
  },
});

/** Ordered by name; never edit a migration that has shipped, add a new one. */
export function migrationsFor(engine: Engine): Record<string, Migration> {
  return { '0001_initial': initial(engine) };
}

export async function migrateToLatest(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrationsFor(engine) };
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
