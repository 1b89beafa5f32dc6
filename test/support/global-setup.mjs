/**
 * Jest's global setup: the tests that run the service or the CLI as a child process run the built
 * code, as `npm start` does, so dist/ is brought up to date once here (a no-op when it is fresh).
 * It is also the one place that checks PostgreSQL and Redis, and says once what this machine skips
 * (every gate of test/support/gates.ts: the services, Chromium, the whole upstream recordings, a disk
 * to fill, prlimit, /dev/full, IPv6, initdb) rather than once per suite with a code frame; the
 * suites read the network verdicts from the environment their workers inherit. With
 * REQUIRE_SERVICES=1 (CI) anything missing stops the run here instead, each one named.
 *
 * Every temporary directory of the run (data directories, the CLI's, the PostgreSQL servers some
 * tests start, Chromium's profile) goes under one, made here and removed by global-teardown.mjs:
 * os.tmpdir() reads TMPDIR, which the workers and every process they start inherit.
 *
 * When the run includes a browser suite (`*-browser*.test.ts`) and Chromium is there, it launches
 * the run's one Chromium, a playwright-core browser server whose endpoint the suites connect to
 * (test/support/browser.ts); global-teardown.mjs closes it.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
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

/** Whether the run's path patterns (none: every file) select a browser suite. */
function runsBrowserSuites(root, globalConfig) {
  const dir = path.join(root, 'test/integration');
  const files = fs
    .readdirSync(dir)
    .filter((f) => /-browser.*\.test\.ts$/.test(f))
    .map((f) => path.join(dir, f));
  const patterns = globalConfig?.testPathPatterns?.patterns ?? [];
  return files.length > 0 && (patterns.length === 0 || patterns.some((p) => files.some((f) => new RegExp(p, 'i').test(f))));
}

/** The run's one Chromium (test/support/browser.ts says why), where a browser suite will run. */
async function launchBrowser(root, globalConfig, missing) {
  if (missing.some((line) => line.startsWith('Chromium')) || !runsBrowserSuites(root, globalConfig)) return;
  // The same binary and flags as test/support/gates.ts and browser.ts (this file cannot import TypeScript on Node 22).
  const executablePath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p && fs.existsSync(p));
  const args = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
  // On the real clock under `npm run test:midnight`, as Redis and PostgreSQL: Chromium's CPU throttling
  // (the dashboard's double-click tests) reads the thread's CPU clock, which libfaketime shifts too.
  const { LD_PRELOAD: _preload, FAKETIME: _offset, ...env } = process.env;
  const server = await chromium.launchServer({ executablePath, args, env });
  globalThis.mgwBrowserServer = server;
  process.env.MGW_TEST_BROWSER_WS = server.wsEndpoint();
}

/**
 * build-if-stale in a child, its output shown as it comes; `done` resolves with its exit code. In a
 * process group of its own, so that `kill()` stops tsc with it.
 */
function startBuild(root) {
  const child = spawn(process.execPath, [path.join(root, 'scripts/build-if-stale.mjs')], { stdio: 'inherit', cwd: root, detached: true });
  const kill = () => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // ESRCH: the build is over.
    }
  };
  const done = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal));
    child.once('error', (error) => resolve(error.message));
  });
  return { kill, done };
}

export default async function globalSetup(globalConfig) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  globalThis.mgwTmpdirBefore = process.env.TMPDIR;
  globalThis.mgwRunTmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mgw-run-'));
  // Open to others, as /tmp is: a test's own PostgreSQL runs as the postgres user in a directory of its own here.
  fs.chmodSync(globalThis.mgwRunTmp, 0o755);
  process.env.TMPDIR = globalThis.mgwRunTmp;
  // The build (tsc, when src/ changed: the longest step) runs while the services and gates are probed.
  const build = startBuild(root);
  try {
    const [postgres, redis] = await Promise.all([postgresProblem(), redisProblem()]);
    for (const [url, problem, flag] of [
      [PG_URL, postgres, 'MGW_TEST_NO_POSTGRES'],
      [REDIS_URL, redis, 'MGW_TEST_NO_REDIS'],
    ]) {
      if (problem) process.env[flag] = `${url} unreachable (${problem})`;
    }
    // The other gates are probed by gates.ts itself, run as a script (Node strips its types).
    const gates = spawnSync(process.execPath, ['--experimental-strip-types', '--no-warnings', path.join(root, 'test/support/gates.ts')], {
      cwd: root,
      env: process.env,
      encoding: 'utf8',
    });
    if (gates.status !== 0 && gates.status !== 1) throw new Error(`test/support/gates.ts failed: ${gates.stderr}`);
    const missing = gates.stdout.split('\n').filter(Boolean);
    if (missing.length > 0 && process.env.REQUIRE_SERVICES === '1') {
      throw new Error(`REQUIRE_SERVICES=1 but missing:\n${missing.map((line) => `  - ${line}`).join('\n')}`);
    }
    for (const line of missing) process.stderr.write(`SKIPPING the tests that need ${line}\n`);
    await launchBrowser(root, globalConfig, missing);
    const status = await build.done;
    if (status !== 0) throw new Error('the build for the child-process tests failed (see above)');
  } catch (error) {
    // Nothing of the setup outlives a failed one: the build, the run's Chromium.
    build.kill();
    await globalThis.mgwBrowserServer?.close();
    removeRunTmp();
    throw error;
  }
}

/** Removes the run's temporary directory and gives TMPDIR back (global-teardown.mjs, or a failed setup). */
export function removeRunTmp() {
  const dir = globalThis.mgwRunTmp;
  if (!dir) return;
  if (globalThis.mgwTmpdirBefore === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = globalThis.mgwTmpdirBefore;
  globalThis.mgwRunTmp = undefined;
  try {
    fs.rmSync(dir, { recursive: true, force: true });
  } catch (error) {
    process.stderr.write(`could not remove the run's temporary directory ${dir}: ${error.message}\n`);
  }
}
