/**
 * Configuration and store for a command. Loaded on first use, so a usage error or `--help` answers
 * without loading zod, Kysely and the database drivers.
 */
import type { Config } from '../config/config.js';
import type { Store } from '../store/index.js';
import { CliError, describeError } from './errors.js';

/** The server's configuration (same environment variables); a bad value is the operator's to fix. */
export async function loadCliConfig(): Promise<Config> {
  const { ConfigError, loadConfig } = await import('../config/config.js');
  try {
    return loadConfig();
  } catch (error) {
    throw error instanceof ConfigError ? new CliError(error.message) : error;
  }
}

/** Opens the store the server uses (SQLite WAL file or PostgreSQL), runs `work`, always closes it. */
export async function withStore<T>(work: (store: Store) => Promise<T>): Promise<T> {
  const config = await loadCliConfig();
  const { createStore, openStore } = await import('../store/index.js');
  let connection;
  try {
    connection = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  } catch (error) {
    // Never print DATABASE_URL itself: it may hold a password.
    const where = config.databaseUrl ? 'DATABASE_URL' : `DATA_DIR ${config.dataDir}`;
    throw new CliError(`cannot open the store (${where}): ${describeError(error)}`);
  }
  try {
    return await work(createStore(connection));
  } finally {
    await connection.close();
  }
}
