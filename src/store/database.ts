/**
 * Opens the store: an embedded SQLite file under DATA_DIR by default, PostgreSQL when
 * DATABASE_URL is set. Both go through one Kysely instance, and migrations run here.
 */
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { type Driver, Kysely, type LogEvent, PostgresDialect, SqliteDialect } from 'kysely';
import type pg from 'pg';
import { type Engine, migrateToLatest } from './migrations.js';
import { withStatementDeadline } from './pg-deadline.js';
import { REQUEST_STATEMENT_MS } from '../deadline/request-deadline.js';
import type { Database } from './tables.js';
import { activeTracing } from '../telemetry/tracing.js';
import { startWalCheckpointer, type WalCheckpointer } from './wal-checkpointer.js';

export interface StoreConnection {
  db: Kysely<Database>;
  engine: Engine;
  /** The raw better-sqlite3 handle (embedded mode), for libraries that need it (quota counters). */
  sqlite?: BetterSqlite3.Database;
  /** The raw pg pool (PostgreSQL mode), for libraries that need it. */
  pgPool?: pg.Pool;
  /** The thread checkpointing the SQLite WAL, when `backgroundCheckpoints` asked for it. */
  walCheckpointer?: WalCheckpointer;
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  databaseUrl?: string | undefined;
  dataDir: string;
  /**
   * PostgreSQL: how long one statement may take. Requests use the default (800 ms, so a hung database
   * is a fast 503); background jobs get a second pool with a longer bound for their batch writes.
   */
  queryTimeoutMs?: number;
  /**
   * PostgreSQL: how long opening a connection may take (default: a second, or the statement's bound
   * when shorter, so that a request or a start on an unreachable database fails fast). An operator's
   * command waits longer: a busy server's answer is worth more to it than a second saved.
   */
  connectTimeoutMs?: number;
  /** PostgreSQL pool size (default PG_POOL_MAX, 10). */
  poolMax?: number;
  /** False for a second connection to a database already migrated by this process. */
  migrate?: boolean;
  /**
   * SQLite: checkpoint the WAL on a thread of its own (wal-checkpointer.ts), for the service; a CLI
   * command's few commits checkpoint as SQLite does by default. Told of a checkpoint that failed.
   */
  backgroundCheckpoints?: { onError(error: Error): void };
}

const INT8_OID = 20;
/**
 * How long a migration's statement may take on PostgreSQL: an index built on a large table, or the
 * wait for another instance that is migrating (Kysely's advisory lock, which itself waits up to an
 * hour). At the request bound, an instance started beside one that migrated for over 800 ms failed
 * to start ("Query read timeout"). A database that cannot be reached still fails within a second.
 */
const MIGRATION_STATEMENT_MS = 10 * 60_000;
/** How often the background thread checkpoints: about 1 000 pages of WAL at the busiest write rate measured (usage rows at 100 000 keys). */
const CHECKPOINT_EVERY_MS = 1_000;
/** The embedded store's file, in DATA_DIR. */
export const SQLITE_FILE = 'market-gateway.sqlite';

export async function openStore(options: OpenStoreOptions): Promise<StoreConnection> {
  const connection = options.databaseUrl
    ? await openPostgres(options.databaseUrl, options.queryTimeoutMs ?? REQUEST_STATEMENT_MS, options.poolMax ?? Number(process.env.PG_POOL_MAX ?? 10), {
        // The requests' pool; one with a bound of its own serves background work.
        followsRequestDeadline: options.queryTimeoutMs === undefined,
        connectTimeoutMs: options.connectTimeoutMs,
      })
    : openSqlite(options.dataDir);
  if (options.migrate === false) return connection;
  try {
    if (!options.databaseUrl) await migrateToLatest(connection.db as Kysely<unknown>, connection.engine);
    else {
      // On a connection of its own, with the migrations' bound instead of the requests'.
      const migrating = await openPostgres(options.databaseUrl, MIGRATION_STATEMENT_MS, 1, {
        followsRequestDeadline: false,
        connectTimeoutMs: options.connectTimeoutMs,
      });
      try {
        await migrateToLatest(migrating.db as Kysely<unknown>, 'postgres');
      } finally {
        await migrating.close();
      }
    }
  } catch (error) {
    await connection.close();
    throw error;
  }
  return options.backgroundCheckpoints ? withBackgroundCheckpoints(connection, options.backgroundCheckpoints.onError) : connection;
}

/** A thread that cannot start leaves the checkpoints where SQLite does them: on the commits. */
async function withBackgroundCheckpoints(connection: StoreConnection, onError: (error: Error) => void): Promise<StoreConnection> {
  if (!connection.sqlite) return connection;
  const checkpointer = await startWalCheckpointer(connection.sqlite, { intervalMs: CHECKPOINT_EVERY_MS, onError }).catch((error: Error) => {
    onError(error);
    return undefined;
  });
  if (!checkpointer) return connection;
  return {
    ...connection,
    walCheckpointer: checkpointer,
    async close() {
      await checkpointer.stop();
      await connection.close();
    },
  };
}

/**
 * SQLite ends a transaction itself on some errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM); Kysely's
 * ROLLBACK after it then fails with "cannot rollback - no transaction is active", and that error
 * replaces the one that says what happened (a full disk answered as an internal error). No ROLLBACK
 * is sent when none is open.
 */
class SqliteDialectKeepingTheCause extends SqliteDialect {
  private readonly sqlite: BetterSqlite3.Database;

  constructor(sqlite: BetterSqlite3.Database) {
    super({ database: withStatementCache(sqlite) });
    this.sqlite = sqlite;
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const rollback = driver.rollbackTransaction.bind(driver);
    driver.rollbackTransaction = async (connection) => {
      if (this.sqlite.inTransaction) await rollback(connection);
    };
    return driver;
  }
}

/** Statements kept prepared; SQL texts beyond these (IN lists of every length) are prepared each time they come. */
const MAX_PREPARED_STATEMENTS = 500;

/**
 * Kysely's SQLite driver asks better-sqlite3 to prepare every query it sends, and preparing was a
 * fifth of the CPU of a request on a key this instance had not seen (a profile with 100 000 keys
 * in rotation): the same few SQL texts, prepared again and again. Each text is prepared once and
 * kept, least recently used dropped first. Kysely runs one query at a time on the connection, so
 * a kept statement is never in use twice.
 */
function withStatementCache(sqlite: BetterSqlite3.Database): { close(): void; prepare(sql: string): BetterSqlite3.Statement } {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (statement) {
        statements.delete(sql); // most recently used last
      } else {
        statement = sqlite.prepare(sql);
        if (statements.size >= MAX_PREPARED_STATEMENTS) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}

/**
 * With tracing on when the store opens, each query of a traced request is a span under it, named by
 * its operation and table: the statement's values never (they are parameters, and not recorded), nor its text.
 * Off, Kysely gets no log hook and times nothing.
 */
function tracedQueries(system: 'sqlite' | 'postgresql'): { log?: (event: LogEvent) => void } {
  if (!activeTracing) return {};
  return {
    log(event) {
      const traced = activeTracing;
      if (!traced) return;
      const sql = event.query.sql;
      const operation = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'QUERY';
      const table = /\b(?:from|into|update)\s+"?(\w+)"?/i.exec(sql)?.[1];
      const end = Date.now();
      traced.record(
        table ? `${operation} ${table}` : operation,
        { 'db.system': system, 'db.system.name': system, 'db.operation.name': operation, 'db.collection.name': table },
        end - event.queryDurationMillis,
        end,
        event.level === 'error',
      );
    },
  };
}

function openSqlite(dataDir: string): StoreConnection {
  fs.mkdirSync(dataDir, { recursive: true });
  const sqlite = new BetterSqlite3(path.join(dataDir, SQLITE_FILE));
  // WAL lets the CLI write while the server reads; busy_timeout makes them wait for each other
  // instead of failing; synchronous=NORMAL in WAL mode survives a process crash.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // A 4 MB page cache (better-sqlite3's default is 16 MB): the read models hold the hot data, and
  // with 100 000 keys in rotation a larger cache did not make a key lookup cheaper (the OS caches
  // the file) but cost 12 to 20 MB of RSS (docs/performance-log.md, "Memory").
  sqlite.pragma('cache_size = -4000');
  const db = new Kysely<Database>({ dialect: new SqliteDialectKeepingTheCause(sqlite), ...tracedQueries('sqlite') });
  return {
    db,
    engine: 'sqlite',
    sqlite,
    close: () => db.destroy(),
  };
}

/** pg is loaded here, with the first PostgreSQL connection: an embedded installation does without it (1.5 MB of heap). */
async function openPostgres(
  connectionString: string,
  queryTimeoutMs: number,
  max: number,
  deadline: { followsRequestDeadline: boolean; connectTimeoutMs?: number | undefined },
): Promise<StoreConnection> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString,
    max,
    // Bounded waits: a dead or hung PostgreSQL fails a request within about a second (answered 503),
    // never leaves it hanging.
    connectionTimeoutMillis: deadline.connectTimeoutMs ?? Math.min(1_000, queryTimeoutMs),
    query_timeout: queryTimeoutMs,
    idleTimeoutMillis: 30_000,
    // Epoch-millisecond columns are bigint; they fit a JS number, so read them as one.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => undefined);
  // pg-pool removes its error listener while a client is checked out; a connection dropped then
  // (PostgreSQL restarted, network cut) would be an uncaught 'error'. The query in flight still fails.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: withStatementDeadline(pool, queryTimeoutMs, deadline) }),
    ...tracedQueries('postgresql'),
  });
  return {
    db,
    engine: 'postgres',
    pgPool: pool,
    close: async () => {
      await db.destroy();
      // Kysely ends the pool only if it ran a query itself: one used by the raw pool alone (the
      // day quotas' counters) kept its connections open after close.
      if (!pool.ending) await pool.end();
    },
  };
}
