/**
 * Usage records on both engines: a known mix of REST and /graphql calls from three keys
 * of two accounts gives exactly those counts by day, route and key, through the CLI and through
 * `viewer.usage`; they agree with what the quota admitted; a restart keeps them; two instances on
 * one PostgreSQL add up exactly.
 */
import { displayPrefix, generateApiKey, hashApiKey } from '../../src/auth/api-key.js';
import { DAY_MS, utcDate } from '../../src/domain/time.js';
import { spawnSync } from 'node:child_process';
import { CLI_MAIN } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { availableEngines, ENGINES, type EngineSetup } from '../support/engines.js';
import { bearer, startTestService, TestClock, midMinute, type TestService } from '../support/service.js';
import { graphqlPost } from '../support/graphql-call.js';

const engines = await availableEngines();
/** Counts are written by hand (`usage.flush()`), never by the interval, so every read is exact. */
const MANUAL_FLUSH = { USAGE_FLUSH_MS: '60000' };

const MARKETS_PAGE = 'query MarketsPage($limit: Int!) { assetMarkets(limit: $limit, offset: 0) { total } }';
const VIEWER_USAGE = 'query MyUsage { viewer { usage(days: 30) { date route requests } } }';

async function secondKey(t: TestService, accountId: string): Promise<{ key: string; keyId: string }> {
  const key = generateApiKey();
  const added = await t.service.store.accounts.addKey({
    accountId,
    name: 'second',
    keyHash: hashApiKey(key),
    displayPrefix: displayPrefix(key),
    now: t.clock.now(),
  });
  return { key, keyId: added!.key.id };
}

const cliEnv = (target: EngineSetup) => ({ DATA_DIR: target.dataDir, ...target.env });

async function cliJson(target: EngineSetup, ...args: string[]): Promise<{ total: number; rows: Record<string, unknown>[] }> {
  const result = await runCliInProcess(['usage', ...args, '--json'], cliEnv(target));
  expect(result.stderr).not.toMatch(/error/i);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

/** `{ label: requests }` of a report's rows, for comparison with what was sent. */
const countsOf = (rows: Record<string, unknown>[], label: string) => Object.fromEntries(rows.map((r) => [r[label], r.requests]));

describe.each(ENGINES.map((e) => [e.name, e] as const))('on %s', (_name, engine) => {
  const maybe = engines.includes(engine) ? it : it.skip;

  maybe(
    'a known mix from three keys of two accounts: exact counts by day, route and key (CLI and viewer.usage), as the quota admitted; kept across a restart',
    async () => {
      const target = await engine.setup();
      const clock = new TestClock(midMinute());
      let t = await startTestService({ dataDir: target.dataDir, env: { ...target.env, ...MANUAL_FLUSH }, clock });
      try {
        const first = await t.createKey('pro', 'pro');
        const second = await secondKey(t, first.accountId);
        const other = await t.createKey('free');
        const today = utcDate(clock.now());
        const tomorrow = utcDate(clock.now() + DAY_MS);
        const gql = (agent: TestService['a'], key: string, query: string, variables?: Record<string, unknown>) => graphqlPost(agent, key, query, variables);

        // Account one, first key: 3 A /markets, 2 A /brief, 2 B /markets, 1 MarketsPage on /graphql (A).
        for (let i = 0; i < 3; i++) expect((await t.a.get('/api/v1/markets?limit=2').set(bearer(first.key))).status).toBe(200);
        for (let i = 0; i < 2; i++) expect((await t.a.get('/api/v1/brief?symbols=BTC/USD').set(bearer(first.key))).status).toBe(200);
        for (let i = 0; i < 2; i++) expect((await t.b.get('/api/v1/markets').set(bearer(first.key))).status).toBe(200);
        expect((await gql(t.a, first.key, MARKETS_PAGE, { limit: 1 })).status).toBe(200);
        // Second key: 1 A /alerts, 2 unnamed /graphql on B (named by what they read).
        expect((await t.a.get('/api/v1/alerts').set(bearer(second.key))).status).toBe(200);
        for (let i = 0; i < 2; i++) expect((await gql(t.b, second.key, '{ assetMarkets(limit: 1) { total } }')).status).toBe(200);
        // Account two (free, 10 a minute): 12 A /markets, of which the quota admits 10; one of them a 400,
        // which spent its unit too. A /brief needs Pro (403) and a wrong key is 401: neither is counted.
        const statuses: number[] = [];
        for (let i = 0; i < 12; i++) statuses.push((await t.a.get(`/api/v1/markets?limit=${i === 0 ? 0 : 1}`).set(bearer(other.key))).status);
        expect(statuses).toEqual([400, ...Array(9).fill(200), 429, 429]);
        expect((await t.a.get('/api/v1/brief?symbols=BTC/USD').set(bearer(other.key))).status).toBe(403);
        expect((await t.a.get('/api/v1/markets').set(bearer(`mgw_${'x'.repeat(40)}`))).status).toBe(401);
        // The next day, the first key once more.
        clock.advance(DAY_MS);
        expect((await t.a.get('/api/v1/markets?limit=2').set(bearer(first.key))).status).toBe(200);
        await t.service.usage!.flush();

        const expectCounts = async () => {
          const byRoute = await cliJson(target, 'report', '--account', first.accountId, '--by', 'route');
          expect(countsOf(byRoute.rows, 'route')).toEqual({
            'A GET /api/v1/markets': 4,
            'A GET /api/v1/brief': 2,
            'B GET /api/v1/markets': 2,
            'A GET /api/v1/alerts': 1,
            MarketsPage: 1,
            'query assetMarkets': 2,
          });
          expect(byRoute.total).toBe(12);
          const byDay = await cliJson(target, 'report', '--account', first.accountId, '--by', 'day');
          expect(countsOf(byDay.rows, 'date')).toEqual({ [today]: 11, [tomorrow]: 1 });
          const byKey = await cliJson(target, 'report', '--by', 'key');
          expect(countsOf(byKey.rows, 'key_id')).toEqual({ [first.keyId]: 9, [second.keyId]: 3, [other.keyId]: 10 });
          expect(byKey.rows.find((r) => r.key_id === second.keyId)?.account_id).toBe(first.accountId);
          const oneKey = await cliJson(target, 'report', '--key', other.keyId, '--by', 'route');
          // What the quota admitted: its 10 units of the minute, no more (the 11th and 12th were 429).
          expect(countsOf(oneKey.rows, 'route')).toEqual({ 'A GET /api/v1/markets': 10 });
        };
        await expectCounts();

        // The account's own view: both keys, both listeners, by day and route; none of account two's.
        const viewer = await gql(t.b, second.key, VIEWER_USAGE);
        expect(viewer.body.errors).toBeUndefined();
        expect(viewer.body.data.viewer.usage).toEqual([
          { date: today, route: 'A GET /api/v1/alerts', requests: 1 },
          { date: today, route: 'A GET /api/v1/brief', requests: 2 },
          { date: today, route: 'A GET /api/v1/markets', requests: 3 },
          { date: today, route: 'B GET /api/v1/markets', requests: 2 },
          { date: today, route: 'MarketsPage', requests: 1 },
          { date: today, route: 'query assetMarkets', requests: 2 },
          { date: tomorrow, route: 'A GET /api/v1/markets', requests: 1 },
        ]);
        // It spends no quota: the free account asks it with its minute spent.
        const own = await gql(t.a, other.key, VIEWER_USAGE);
        expect(own.status).toBe(200);
        expect(own.body.data.viewer.usage).toEqual([{ date: today, route: 'A GET /api/v1/markets', requests: 10 }]);
        const tooMany = await gql(t.a, other.key, '{ viewer { usage(days: 401) { date } } }');
        expect(tooMany.body.errors[0]).toMatchObject({ message: 'days must be an integer from 1 to 400', extensions: { code: 'BAD_USER_INPUT' } });

        // Closing writes what was counted since (the three viewer.usage requests, tomorrow), and a restart keeps it all.
        await t.close({ keepData: true });
        t = await startTestService({ dataDir: target.dataDir, env: { ...target.env, ...MANUAL_FLUSH }, clock });
        const afterRestart = await cliJson(target, 'report', '--by', 'key');
        expect(countsOf(afterRestart.rows, 'key_id')).toEqual({ [first.keyId]: 9, [second.keyId]: 4, [other.keyId]: 12 });
        const days = await cliJson(target, 'report', '--account', first.accountId, '--by', 'day');
        expect(countsOf(days.rows, 'date')).toEqual({ [today]: 11, [tomorrow]: 2 });
      } finally {
        await t.close({ keepData: true });
        await target.teardown();
      }
    },
  );

  maybe('the CLI: CSV, a table, legacy callers per REST route, and clear errors', async () => {
    const target = await engine.setup();
    const t = await startTestService({ dataDir: target.dataDir, env: { ...target.env, ...MANUAL_FLUSH } });
    try {
      const { key, keyId, accountId } = await t.createKey('pro', 'pro');
      for (let i = 0; i < 3; i++) expect((await t.b.get('/api/v1/brief').set(bearer(key))).status).toBe(200);
      await t.service.usage!.flush();
      const csv = await runCliInProcess(['usage', 'report', '--by', 'route', '--csv'], cliEnv(target));
      expect(csv.stdout.trimEnd().split('\n')).toEqual(['route,requests,last_at', expect.stringMatching(/^B GET \/api\/v1\/brief,3,\d{4}-\d\d-\d\dT/)]);
      const table = await runCliInProcess(['usage', 'report', '--account', accountId], cliEnv(target));
      expect(table.stdout).toContain('3 requests since');

      const legacy = await runCliInProcess(['usage', 'legacy', '--days', '7', '--json'], cliEnv(target));
      const routes = JSON.parse(legacy.stdout).routes as { route: string; callers: { key_id: string; account_id: string; requests: number }[] }[];
      expect(routes.map((r) => r.route)).toEqual([
        'A GET /api/v1/markets',
        'A GET /api/v1/brief',
        'A GET /api/v1/alerts',
        'B GET /api/v1/markets',
        'B GET /api/v1/brief',
        'B GET /api/v1/alerts',
      ]);
      expect(routes.find((r) => r.route === 'B GET /api/v1/brief')!.callers).toEqual([
        expect.objectContaining({ key_id: keyId, account_id: accountId, requests: 3 }),
      ]);
      expect(routes.filter((r) => r.callers.length > 0)).toHaveLength(1);
      const text = await runCliInProcess(['usage', 'legacy'], cliEnv(target));
      expect(text.stdout).toContain('B GET /api/v1/brief: 3 calls from 1 keys');
      expect(text.stdout).toContain('A GET /api/v1/markets: no calls since');

      // The bin itself (the reports above ran its command tree in-process): a reader gone before the
      // output (`| head`, here `| true`, which never reads): no EPIPE stack trace, exit 0.
      const piped = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" "${CLI_MAIN}" usage legacy | true; echo "exit $?" >&2`], {
        env: { ...process.env, ...cliEnv(target), LOG_LEVEL: 'silent', NODE_OPTIONS: '' },
        encoding: 'utf8',
      });
      expect(piped.stderr).not.toMatch(/EPIPE|Error/);
      expect(piped.stderr).toContain('exit 0');

      for (const [args, message] of [
        [['usage', 'report', '--since', '2026-02-30'], /Expected a date/],
        [['usage', 'report', '--by', 'hour'], /Allowed choices are day, route, key/],
        [['usage', 'report', '--account', 'acct_nope'], /no account with id acct_nope/],
        [['usage', 'report', '--account', accountId, '--key', keyId], /cannot be used with/],
        [['usage', 'legacy', '--days', '0'], /from 1 to 3650/],
      ] as const) {
        const result = await runCliInProcess(args, cliEnv(target));
        expect(result.code).not.toBe(0);
        expect(result.stderr).toMatch(message);
      }
    } finally {
      await t.close();
      await target.teardown();
    }
  });
});

const pg = ENGINES.find((e) => e.name === 'postgres')!;
(engines.includes(pg) ? it : it.skip)('two instances on one PostgreSQL: their counts add up exactly', async () => {
  const target = await pg.setup();
  // Warnings kept: a refused request is shown with the reason each instance logged (a CI run once got a 503 here).
  const warnings: string[] = [];
  const logSink = { write: (line: string) => void warnings.push(line) };
  const env = { ...target.env, ...MANUAL_FLUSH, LOG_LEVEL: 'warn' };
  const one = await startTestService({ dataDir: target.dataDir, env, logSink });
  const two = await startTestService({ env, logSink });
  try {
    const { key, keyId } = await one.createKey('pro', 'pro');
    const sends = [...Array(7).fill(one), ...Array(5).fill(two)] as TestService[];
    const answers = await Promise.all(sends.map((t) => t.a.get('/api/v1/markets?limit=1').set(bearer(key))));
    const refused = answers.filter((a) => a.status !== 200).map((a) => ({ status: a.status, body: a.text }));
    expect({ refused, warnings: refused.length ? warnings : [] }).toEqual({ refused: [], warnings: [] });
    await Promise.all([one.service.usage!.flush(), two.service.usage!.flush()]);
    // Flushed twice (the second with nothing pending) to show a flush adds, never overwrites.
    await one.service.usage!.flush();
    const report = await cliJson(target, 'report', '--key', keyId, '--by', 'route');
    expect(countsOf(report.rows, 'route')).toEqual({ 'A GET /api/v1/markets': 12 });
  } finally {
    await one.close({ keepData: true });
    await two.close({ keepData: true });
    await target.teardown();
  }
});
