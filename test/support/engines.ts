/**
 * Runs a suite on every store engine: SQLite in a temp dir always, PostgreSQL when it is
 * reachable (a fresh schema per suite). With REQUIRE_SERVICES=1 (CI) an unreachable
 * PostgreSQL stops the run in Jest's global setup instead of skipping.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { randomBase62 } from '../../src/domain/ids.js';
import { present } from './gates.js';

export const PG_ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Whether PostgreSQL is there: Jest's global setup checked once, and said so (gates.ts). */
export async function postgresAvailable(): Promise<boolean> {
  return present('postgres');
}

/** A private PostgreSQL schema; the URL points search_path at it. */
export async function createPgSchema(): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `t_${randomBase62(10).toLowerCase()}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}

/**
 * What PostgreSQL's sessions are doing and which locks are held or awaited: for a failure message,
 * when something waited on the database longer than it should have. Never throws.
 */
export async function postgresSessions(): Promise<string> {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 5_000 });
  try {
    await c.connect();
    const sessions = await c.query(`select pid, application_name, state, wait_event_type, wait_event,
        round(extract(epoch from now() - xact_start)) as xact_s, left(regexp_replace(query, '\\s+', ' ', 'g'), 160) as query
      from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() order by pid`);
    const locks = await c.query(`select pid, locktype, relation::regclass as relation, mode, granted, objid
      from pg_locks where locktype = 'advisory' or not granted order by pid`);
    return [...sessions.rows, '-- locks', ...locks.rows].map((row) => JSON.stringify(row)).join('\n');
  } catch (error) {
    return `(PostgreSQL's sessions could not be read: ${(error as Error).message})`;
  } finally {
    await c.end().catch(() => undefined);
  }
}

export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'mgw-test-'));
}

export interface EngineSetup {
  databaseUrl?: string;
  dataDir: string;
  /** Environment for a service on this engine (DATABASE_URL for PostgreSQL, nothing for SQLite). */
  env: Record<string, string>;
  teardown(): Promise<void>;
}

export interface EngineTarget {
  name: 'sqlite' | 'postgres';
  /** Options for openStore / loadConfig. */
  setup(): Promise<EngineSetup>;
}

export const ENGINES: EngineTarget[] = [
  {
    name: 'sqlite',
    async setup() {
      const dataDir = tempDataDir();
      return { dataDir, env: {}, teardown: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'postgres',
    async setup() {
      const schema = await createPgSchema();
      const dataDir = tempDataDir();
      return {
        databaseUrl: schema.url,
        dataDir,
        env: { DATABASE_URL: schema.url },
        teardown: async () => {
          await schema.drop();
          fs.rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  },
];

/** describe.each over the engines, skipping PostgreSQL (visibly) when it is unreachable. */
export async function availableEngines(): Promise<EngineTarget[]> {
  const pgOk = await postgresAvailable();
  return ENGINES.filter((e) => e.name === 'sqlite' || pgOk);
}

/** A store for a service in a child process: its environment, and how to drop it. */
export interface ProcessEngine {
  name: 'SQLite' | 'PostgreSQL';
  env(): Promise<{ env: Record<string, string>; drop(): Promise<void> }>;
}

/** The engines as the environment of `market-gateway start` in a child process (kill -9, restarts). */
export const PROCESS_ENGINES: ProcessEngine[] = [
  { name: 'SQLite', env: async () => ({ env: { DATA_DIR: tempDataDir() }, drop: async () => undefined }) },
  {
    name: 'PostgreSQL',
    env: async () => {
      const schema = await createPgSchema();
      return { env: { DATA_DIR: tempDataDir(), DATABASE_URL: schema.url }, drop: () => schema.drop() };
    },
  },
];
