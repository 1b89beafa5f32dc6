/**
 * Operator mistakes refused at start, one case each: the bin exits 1 with one line that names the
 * setting to change, before it binds a port or writes anything; what is accepted on purpose
 * (per-instance quotas) starts with a warning.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CLI_MAIN } from '../support/cli.js';
import { createPgSchema, PG_ADMIN_URL, postgresAvailable, tempDataDir } from '../support/engines.js';
import { killStartedProcesses, startProcess } from '../support/process.js';
import { redisAvailable } from '../support/redis.js';
import { within } from '../support/wait.js';

afterEach(killStartedProcesses);

const withPostgres = (await postgresAvailable()) ? it : it.skip;
const withRedis = (await redisAvailable()) ? it : it.skip;

async function refused(command: string, env: Record<string, string>): Promise<string> {
  const dataDir = path.join(tempDataDir(), 'fresh');
  const run = startProcess(process.execPath, [CLI_MAIN, command], { DATA_DIR: dataDir, MARKET_DATA_PORT: '0', PREDICTION_PORT: '0', ...env });
  expect(await run.exited).toBe(1);
  const lines = run.output().trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).not.toMatch(/DEBUG=1|at .*\.js:\d+/); // the operator's mistake, not a crash
  expect(fs.existsSync(dataDir)).toBe(false);
  return lines[0]!;
}

it('worker on SQLite', async () => {
  expect(await refused('worker', {})).toMatch(/worker needs DATABASE_URL .*run `start`/);
});

it('serve on SQLite', async () => {
  expect(await refused('serve', {})).toMatch(/serve needs DATABASE_URL .*run `start`/);
});

it('a DATABASE_URL that is not PostgreSQL', async () => {
  expect(await refused('start', { DATABASE_URL: 'mysql://127.0.0.1:3306/mgw' })).toMatch(/DATABASE_URL: a postgres:\/\/ or postgresql:\/\/ URL/);
});

it('a REDIS_URL that is not Redis', async () => {
  expect(await refused('start', { REDIS_URL: 'http://127.0.0.1:6379' })).toMatch(/REDIS_URL: a redis:\/\/ or rediss:\/\/ URL/);
});

it('a NODE_ENV it does not know', async () => {
  expect(await refused('start', { NODE_ENV: 'prod' })).toMatch(/NODE_ENV/);
});

it('a WEBHOOK_ALLOWED_NETWORKS entry that is not a CIDR, or a WEBHOOK_ALLOW_HTTP that is not 0 or 1', async () => {
  expect(await refused('start', { WEBHOOK_ALLOWED_NETWORKS: '10.0.0.0/8,intranet' })).toMatch(/WEBHOOK_ALLOWED_NETWORKS: "intranet" is not a CIDR/);
  expect(await refused('start', { WEBHOOK_ALLOW_HTTP: 'yes' })).toMatch(/WEBHOOK_ALLOW_HTTP/);
});

it('a LEGACY_DEPRECATIONS entry naming no route, or with its sunset before its deprecation', async () => {
  expect(await refused('start', { LEGACY_DEPRECATIONS: '{"A GET /api/v1/brif": {"deprecated": "2026-01-01"}}' })).toMatch(
    /LEGACY_DEPRECATIONS\["A GET \/api\/v1\/brif"\]: no such route; routes are "A GET \/api\/v1\/markets"/,
  );
  expect(await refused('start', { LEGACY_DEPRECATIONS: '{"B GET /api/v1/alerts": {"deprecated": "2026-06-01", "sunset": "2026-01-01"}}' })).toMatch(
    /LEGACY_DEPRECATIONS\["B GET \/api\/v1\/alerts"\]\.sunset: sunset is before deprecated/,
  );
});

withPostgres('a PostgreSQL database that does not exist, without echoing the URL', async () => {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = '/mgw_no_such_database';
  url.password = 'secret-in-url';
  const line = await refused('start', { DATABASE_URL: url.toString() });
  expect(line).toMatch(/DATABASE_URL: cannot open the store: .*mgw_no_such_database.* does not exist/);
  expect(line).not.toContain('secret-in-url');
});

withRedis('a Redis database index the server does not have', async () => {
  expect(await refused('start', { REDIS_URL: 'redis://127.0.0.1:6379/99' })).toMatch(/REDIS_URL: .*DB index is out of range/);
});

withPostgres('serve without REDIS_URL is refused; with ALLOW_LOCAL_QUOTAS=1 it starts and warns', async () => {
  const schema = await createPgSchema();
  try {
    expect(await refused('serve', { DATABASE_URL: schema.url })).toMatch(/serve needs REDIS_URL.*ALLOW_LOCAL_QUOTAS=1/);
    const run = startProcess(process.execPath, [CLI_MAIN, 'serve'], {
      DATA_DIR: tempDataDir(),
      DATABASE_URL: schema.url,
      ALLOW_LOCAL_QUOTAS: '1',
      MARKET_DATA_PORT: '0',
      PREDICTION_PORT: '0',
    });
    await within(60_000, () => run.output().includes('market-gateway listening') || run.child.exitCode !== null);
    expect(run.output()).toMatch(/"level":40.*ALLOW_LOCAL_QUOTAS=1 without REDIS_URL/);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  } finally {
    await schema.drop();
  }
});
