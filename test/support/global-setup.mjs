/**
 * Jest's global setup: the tests that run the service or the CLI as a child process run the built
 * code, as `npm start` does, so dist/ is brought up to date once here (a no-op when it is fresh).
 * It also says once what this machine skips (whole upstream recordings, PostgreSQL, Redis), rather
 * than once per suite with a code frame; the suites read the verdict from the environment that
 * their workers inherit (test/support/engines.ts, redis.ts). With REQUIRE_SERVICES=1 nothing is
 * skipped: a missing service fails the suites that need it.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';

const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

/** Why PostgreSQL cannot be used, or undefined when it can. */
async function postgresProblem() {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Why Redis cannot be used, or undefined when it can. */
async function redisProblem() {
  const client = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await client.connect();
    await client.ping();
    return undefined;
  } catch (error) {
    return String(error);
  } finally {
    client.disconnect();
  }
}

export default async function globalSetup() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const shared = path.resolve(root, '../shared/fixtures/upstream');
  if (!fs.existsSync(shared)) {
    process.stderr.write(
      `SKIPPING the tests on whole upstream recordings: ${shared} is absent (CI has it beside the clone; the trimmed excerpts in test/fixtures/recorded still run).\n`,
    );
  }
  if (process.env.REQUIRE_SERVICES !== '1') {
    const [postgres, redis] = await Promise.all([postgresProblem(), redisProblem()]);
    if (postgres) {
      process.env.MGW_TEST_NO_POSTGRES = postgres;
      process.stderr.write(`SKIPPING the PostgreSQL tests: ${PG_URL} unreachable (${postgres}).\n`);
    }
    if (redis) {
      process.env.MGW_TEST_NO_REDIS = redis;
      process.stderr.write(`SKIPPING the Redis tests: ${REDIS_URL} unreachable (${redis}).\n`);
    }
  }
  const result = spawnSync(process.execPath, [path.join(root, 'scripts/build-if-stale.mjs')], { stdio: 'inherit', cwd: root });
  if (result.status !== 0) throw new Error('the build for the child-process tests failed (see above)');
}
