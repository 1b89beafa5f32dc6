/**
 * Configuration and store for a command. Loaded on first use, so a usage error or `--help` answers
 * without loading zod, Kysely and the database drivers.
 */
import fs from 'node:fs';
import type { Config } from '../config/config.js';
import type { Store } from '../store/index.js';
import { CliError } from './errors.js';

/** `--verbose`: notes (which store was opened) on stderr. Off by default: a command prints its answer and nothing else. */
let verbose = false;

export function setVerbose(on: boolean): void {
  verbose = on;
}

/** A note for the operator on stderr, with `--verbose` only. */
export function note(text: string): void {
  if (verbose) process.stderr.write(`${text}\n`);
}

/** The server's configuration (same environment variables); a bad value is the operator's to fix. */
export async function loadCliConfig(): Promise<Config> {
  const { ConfigError, loadConfig } = await import('../config/config.js');
  try {
    return loadConfig();
  } catch (error) {
    throw error instanceof ConfigError ? new CliError(error.message) : error;
  }
}

/**
 * Opens the store the server uses (SQLite WAL file or PostgreSQL), says which on stderr with `--verbose`, runs
 * `work`, always closes it. Only `start` creates DATA_DIR: a command pointed at a directory that
 * does not exist would otherwise make an empty database that no server reads.
 */
/**
 * An operator's command on PostgreSQL waits for a busy server (a stack starting, a load) rather
 * than give up at the requests' bounds (a second to connect, 800 ms a statement); a database that
 * refuses connections still fails at once.
 */
const OPERATOR_BOUNDS = { connectTimeoutMs: 10_000, queryTimeoutMs: 30_000 };

export async function withStore<T>(work: (store: Store) => Promise<T>): Promise<T> {
  const config = await loadCliConfig();
  const [{ createStore }, { openConfiguredStore, storeLocation }, { ConfigError }, { diskFullReason }] = await Promise.all([
    import('../store/index.js'),
    import('../config/open-store.js'),
    import('../config/config.js'),
    import('../edge/degraded.js'),
  ]);
  if (!config.databaseUrl && !fs.existsSync(config.dataDir)) {
    throw new CliError(
      `DATA_DIR ${config.dataDir} does not exist: start the server once (npm start creates it), or set DATA_DIR to the directory the server uses`,
    );
  }
  note(`store: ${storeLocation(config)}`);
  /** A full disk (classified as the server's answers are, at open or in the work), said with where the store lives. */
  const diskFull = (error: unknown) => {
    const reason = diskFullReason(error);
    if (reason === undefined) return undefined;
    const disk = config.databaseUrl ? `the disk of the database server (${storeLocation(config)})` : `the disk holding the data directory ${config.dataDir}`;
    return new CliError(`${disk} is full (${reason}); free space and retry`);
  };
  const connection = await openConfiguredStore(config, OPERATOR_BOUNDS).catch((error: unknown) => {
    throw diskFull(error) ?? (error instanceof ConfigError ? new CliError(error.message) : error);
  });
  try {
    return await work(createStore(connection));
  } catch (error) {
    throw diskFull(error) ?? error;
  } finally {
    await connection.close();
  }
}
