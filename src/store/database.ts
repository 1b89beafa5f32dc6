/**
 * Opens the store: an embedded SQLite file under DATA_DIR by default, PostgreSQL when
 * DATABASE_URL is set. Both go through one Kysely instance, and migrations run here.
 */
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { type Engine, migrateToLatest } from './migrations.js';
import type { Database } from './tables.js';

export interface StoreConnection {
  db: Kysely<Database>;
  engine: Engine;
  /** The raw better-sqlite3 handle (embedded mode), for libraries that need it (quota counters). */
  sqlite?: BetterSqlite3.Database;
  /** The raw pg pool (PostgreSQL mode), for libraries that need it. */
  pgPool?: pg.Pool;
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  databaseUrl?: string | undefined;
  dataDir: string;
}

const INT8_OID = 20;

export async function openStore(options: OpenStoreOptions): Promise<StoreConnection> {
  const connection = options.databaseUrl ? openPostgres(options.databaseUrl) : openSqlite(options.dataDir);
  await migrateToLatest(connection.db as Kysely<unknown>, connection.engine);
  return connection;
}

function openSqlite(dataDir: string): StoreConnection {
  fs.mkdirSync(dataDir, { recursive: true });
  const sqlite = new BetterSqlite3(path.join(dataDir, 'market-gateway.sqlite'));
  // WAL lets the CLI write while the server reads; busy_timeout makes them wait for each other
  // instead of failing; synchronous=NORMAL in WAL mode survives a process crash.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return {
    db,
    engine: 'sqlite',
    sqlite,
    close: () => db.destroy(),
  };
}

function openPostgres(connectionString: string): StoreConnection {
  const pool = new pg.Pool({
    connectionString,
    max: Number(process.env.PG_POOL_MAX ?? 10),
    connectionTimeoutMillis: 2_000,
    idleTimeoutMillis: 30_000,
    // Epoch-millisecond columns are bigint; they fit a JS number, so read them as one.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, engine: 'postgres', pgPool: pool, close: () => db.destroy() };
}
