/**
 * Jest's global setup: the tests that run the service or the CLI as a child process run the built
 * code, as `npm start` does, so dist/ is brought up to date once here (a no-op when it is fresh).
 * It is also the one place that checks PostgreSQL and Redis, and says once what this machine skips
 * (whole upstream recordings, PostgreSQL, Redis) rather than once per suite with a code frame; the
 * suites read the verdict from the environment their workers inherit (test/support/engines.ts,
 * redis.ts). With REQUIRE_SERVICES=1 (CI) a missing service stops the run here instead.
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
  const [postgres, redis] = await Promise.all([postgresProblem(), redisProblem()]);
  for (const [name, url, problem, flag] of [
    ['PostgreSQL', PG_URL, postgres, 'MGW_TEST_NO_POSTGRES'],
    ['Redis', REDIS_URL, redis, 'MGW_TEST_NO_REDIS'],
  ]) {
    if (!problem) continue;
    if (process.env.REQUIRE_SERVICES === '1') throw new Error(`REQUIRE_SERVICES=1 but ${name} at ${url} is unreachable: ${problem}`);
    process.env[flag] = problem;
    process.stderr.write(`SKIPPING the ${name} tests: ${url} unreachable (${problem}).\n`);
  }
  const result = spawnSync(process.execPath, [path.join(root, 'scripts/build-if-stale.mjs')], { stdio: 'inherit', cwd: root });
  if (result.status !== 0) throw new Error('the build for the child-process tests failed (see above)');
}
