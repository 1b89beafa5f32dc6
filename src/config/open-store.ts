/**
 * The store the configuration names (DATABASE_URL, else the SQLite file in DATA_DIR), opened the
 * same way by the server and the CLI, and described without its password.
 */
import path from 'node:path';
import { ConfigError, type Config } from './config.js';
import { openStore, SQLITE_FILE, type OpenStoreOptions } from '../store/database.js';

type StoreSettings = Pick<Config, 'databaseUrl' | 'dataDir'>;

/** `SQLite /abs/data/market-gateway.sqlite` or `PostgreSQL db.internal:5432/gateway`: where, never who. */
export function storeLocation({ databaseUrl, dataDir }: StoreSettings): string {
  if (!databaseUrl) return `SQLite ${path.join(dataDir, SQLITE_FILE)}`;
  const url = new URL(databaseUrl);
  return `PostgreSQL ${url.hostname || 'localhost'}:${url.port || '5432'}${url.pathname || '/'}`;
}

/** Opens the configured store; a failure names the setting (never the URL: it may hold a password). */
export async function openConfiguredStore(config: StoreSettings, options: Omit<OpenStoreOptions, 'databaseUrl' | 'dataDir'> = {}) {
  try {
    return await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, ...options });
  } catch (error) {
    const setting = config.databaseUrl ? 'DATABASE_URL' : `DATA_DIR (${config.dataDir})`;
    // A refused connection is an AggregateError with an empty message: its parts say what happened.
    const parts = error instanceof AggregateError && !error.message ? error.errors : [error];
    const reason = [...new Set(parts.map((e: { message?: string; code?: string }) => e?.message || e?.code || String(e)))].join('; ');
    throw new ConfigError(`${setting}: cannot open the store: ${reason}`, { cause: error });
  }
}
