/**
 * Accounts and keys, end to end on both engines: the CLI changes the store while a
 * real service answers from its cached keys (the built bin in a process of its own for the first
 * change, the same command tree in-process for the rest: cli-in-process.ts). A disabled account's key is refused within 2 s and
 * admitted again within 2 s of being enabled; a new plan opens its routes within 2 s; an expired key
 * is refused from its expiry on (the service's clock); the 21st live key is refused; the dashboard's
 * rules never touch another account's key; each change is in the account's activity log.
 */
import { displayPrefix, generateApiKey, hashApiKey } from '../../src/auth/api-key.js';
import { revokeKey } from '../../src/auth/key-management.js';
import { DomainError } from '../../src/domain/errors.js';
import { type CliResult, runCli } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { availableEngines, ENGINES, type EngineSetup } from '../support/engines.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { within } from '../support/wait.js';
import { accountScope } from '../../src/domain/scope.js';

const engines = await availableEngines();
/** D2's bound on how soon running servers apply a change made anywhere. */
const APPLIED_WITHIN_MS = 2_000;

interface AccountJson {
  id: string;
  email: string | null;
  plan: string;
  prediction_plan: string;
  status: string;
  disabled_at: string | null;
  changed_at: string | null;
  live_keys: number;
}

/** A user error: non-zero exit, one line on stderr, nothing on stdout. */
function expectUserError(result: CliResult, message: RegExp): void {
  expect(result.code).not.toBe(0);
  expect(result.stderr).toMatch(message);
  expect(result.stderr).not.toContain('    at ');
  expect(result.stdout).toBe('');
}

describe.each(ENGINES.map((e) => [e.name, e] as const))('on %s', (_name, engine) => {
  const maybe = engines.includes(engine) ? it : it.skip;
  let target: EngineSetup;
  let t: TestService;
  const cli = (...args: string[]) => runCliInProcess(args, { DATA_DIR: target.dataDir, ...target.env });
  async function cliJson<T>(...args: string[]): Promise<T> {
    return parsedJson<T>(await cli(...args, '--json'));
  }
  function parsedJson<T>(result: CliResult): T {
    expect(result.stderr).not.toMatch(/error/);
    expect(result.code).toBe(0);
    return JSON.parse(result.stdout) as T;
  }
  const markets = (key: string) => t.a.get('/api/v1/markets').set(bearer(key));
  /** Milliseconds from the change recorded by the CLI until the service answers `status`. */
  async function appliedAfter(changedAt: string | null, status: number, request: () => PromiseLike<{ status: number }>): Promise<number> {
    await within(APPLIED_WITHIN_MS + 1_000, async () => (await request()).status === status);
    return Date.now() - Date.parse(changedAt!);
  }

  beforeAll(async () => {
    if (!engines.includes(engine)) return;
    target = await engine.setup();
    t = await startTestService({ dataDir: target.dataDir, env: target.env });
  });
  afterAll(async () => {
    await t?.close();
    await target?.teardown();
  });

  maybe("disable (by the user's email) refuses the account's cached key within 2 s and ends its sessions; enable admits it again within 2 s", async () => {
    const { key, accountId } = await t.createKey('free');
    const { key: other } = await t.createKey('free');
    const now = Date.now();
    const user = await t.service.store.users.create({ accountId, email: 'ops@example.com', passwordHash: 'x', now });
    await t.service.store.sessions.create({
      idHash: 'a'.repeat(64),
      userId: user!.id,
      stage: 'signed_in',
      csrfToken: 'c',
      createdAt: now,
      lastSeenAt: now,
      expiresAt: now + 3_600_000,
      clientAddress: '127.0.0.1',
      userAgent: 'test',
    });
    expect((await markets(key)).status).toBe(200); // cached from now on

    // The bin, a process of its own, as an operator beside a running server.
    const disabled = parsedJson<AccountJson>(await runCli(['accounts', 'disable', 'OPS@example.com', '--json'], { DATA_DIR: target.dataDir, ...target.env }));
    expect(disabled).toMatchObject({ id: accountId, email: 'ops@example.com', status: 'disabled', disabled_at: expect.any(String) });
    expect(await appliedAfter(disabled.changed_at, 401, () => markets(key))).toBeLessThan(APPLIED_WITHIN_MS);
    expect((await markets(other)).status).toBe(200);
    expect(await t.service.store.sessions.find('a'.repeat(64))).toBeUndefined();
    const again = await cli('accounts', 'disable', accountId);
    expect(again.stdout).toMatch(/was already disabled/);

    const enabled = await cliJson<AccountJson>('accounts', 'enable', accountId);
    expect(enabled).toMatchObject({ status: 'active', disabled_at: null });
    expect(await appliedAfter(enabled.changed_at, 200, () => markets(key))).toBeLessThan(APPLIED_WITHIN_MS);

    const activity = await cliJson<{ kind: string; detail: string; client_address: string | null; at: string }[]>('accounts', 'activity', accountId);
    expect(activity.map((e) => [e.kind, e.detail, e.client_address])).toEqual([
      ['account_enabled', 'account enabled', null],
      ['account_disabled', 'account disabled; 1 dashboard session ended', null],
    ]);
  });

  maybe('set-plan opens the routes of the new plans on the running server within 2 s: A /brief 403 -> 200, B /markets 403 -> 200', async () => {
    const { key, accountId } = await t.createKey('free', 'none');
    const brief = () => t.a.get('/api/v1/brief?symbols=BTC/USD').set(bearer(key));
    const predictions = () => t.b.get('/api/v1/markets').set(bearer(key));
    expect((await brief()).status).toBe(403);
    expect((await predictions()).status).toBe(403);

    const pro = await cliJson<AccountJson>('accounts', 'set-plan', accountId, '--market-data', 'pro');
    expect(pro).toMatchObject({ plan: 'pro', prediction_plan: 'none' });
    expect(await appliedAfter(pro.changed_at, 200, brief)).toBeLessThan(APPLIED_WITHIN_MS);
    expect((await predictions()).status).toBe(403);

    const both = await cliJson<AccountJson>('accounts', 'set-plan', accountId, '--prediction', 'pro');
    expect(both).toMatchObject({ plan: 'pro', prediction_plan: 'pro' });
    expect(await appliedAfter(both.changed_at, 200, predictions)).toBeLessThan(APPLIED_WITHIN_MS);

    const unchanged = await cli('accounts', 'set-plan', accountId, '--prediction', 'pro');
    expect(unchanged.stdout).toMatch(/already has plan pro, prediction plan pro; nothing changed/);
    const activity = await cliJson<{ kind: string; detail: string }[]>('accounts', 'activity', accountId);
    expect(activity.map((e) => [e.kind, e.detail])).toEqual([
      ['plan_changed', 'prediction plan none to pro'],
      ['plan_changed', 'market-data plan free to pro'],
    ]);
  });

  maybe("an expired key is refused from its expiry on by the service's clock, also while cached", async () => {
    const { accountId } = await t.createKey('free');
    const key = generateApiKey();
    const expiresAt = t.clock.now() + 60_000;
    await t.service.store.accounts.addKeyWithin({
      accountId,
      name: 'temp',
      keyHash: hashApiKey(key),
      displayPrefix: displayPrefix(key),
      now: t.clock.now(),
      expiresAt,
      maxLive: 20,
    });
    expect((await markets(key)).status).toBe(200);
    t.clock.advance(59_999);
    expect((await markets(key)).status).toBe(200);
    t.clock.advance(1);
    const refused = await markets(key);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ success: false, error: { type: 'unauthorized' } });
  });

  maybe("the 21st live key is refused, revoked and expired keys not counted; the dashboard's rules never revoke another account's key", async () => {
    const first = await cliJson<{ id: string; account_id: string; key: string; expires_at: string | null }>('keys', 'create', '--name', 'many');
    const accountId = first.account_id;
    // An expired key (written straight to the store: the rules refuse a past expiry) and a revoked one.
    const long = new Date(Date.now() + 86_400_000).toISOString();
    const expiring = await cliJson<{ id: string; expires_at: string }>('keys', 'create', '--account', accountId, '--expires', long);
    expect(expiring.expires_at).toBe(long);
    const stale = generateApiKey();
    await t.service.store.accounts.addKey({ accountId, name: 'old', keyHash: hashApiKey(stale), displayPrefix: displayPrefix(stale), now: 1, expiresAt: 2 });
    const revoked = await cliJson<{ id: string }>('keys', 'create', '--account', accountId);
    expect((await cli('keys', 'revoke', revoked.id)).code).toBe(0);
    // 2 live so far; 18 more through the store, as fast as a script would.
    for (let i = 0; i < 18; i++) {
      const k = generateApiKey();
      await t.service.store.accounts.addKeyWithin({
        accountId,
        name: `k${i}`,
        keyHash: hashApiKey(k),
        displayPrefix: displayPrefix(k),
        now: Date.now(),
        maxLive: 20,
      });
    }
    const [refused, past, listed] = await Promise.all([
      cli('keys', 'create', '--account', accountId),
      cli('keys', 'create', '--account', accountId, '--expires', '2020-01-01'),
      cliJson<{ id: string; expires_at: string | null }[]>('keys', 'list'),
    ]);
    expectUserError(refused, /^error: an account has at most 20 live keys \(neither revoked nor expired\); revoke one first/m);
    expectUserError(past, /the expiry must be in the future \(2020-01-01T00:00:00\.000Z has passed\)/);
    expect(listed.find((k) => k.id === expiring.id)?.expires_at).toBe(long);
    expect((await cliJson<AccountJson>('accounts', 'show', accountId)).live_keys).toBe(20);
    // Rotating with the old key revoked keeps the count: allowed at the limit.
    expect((await cli('keys', 'rotate', first.id, '--revoke-old')).code).toBe(0);

    const { key: theirs, keyId: theirId } = await t.createKey('free');
    const error = await revokeKey(t.service.store, theirId, Date.now(), { clientAddress: '198.51.100.1' }, accountScope(accountId)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ kind: 'not_found' });
    await new Promise((r) => setTimeout(r, 500)); // more than a poll: a revocation would have been seen
    expect((await markets(theirs)).status).toBe(200);
  });
});

describe('accounts list, show and their errors', () => {
  const maybe = engines.length > 0 ? it : it.skip;
  let target: EngineSetup;
  const cli = (...args: string[]) => runCliInProcess(args, { DATA_DIR: target.dataDir });
  beforeAll(async () => {
    target = await ENGINES[0]!.setup();
  });
  afterAll(() => target?.teardown());

  maybe('list and show print accounts and keys, never a key; unknown accounts and bad choices are one-line errors', async () => {
    const created = JSON.parse((await cli('keys', 'create', '--plan', 'pro', '--name', 'acme', '--json')).stdout) as {
      id: string;
      key: string;
      account_id: string;
    };
    const id = created.account_id;
    const [listJson, listHuman, showJson, showHuman] = await Promise.all([
      cli('accounts', 'list', '--json'),
      cli('accounts', 'list'),
      cli('accounts', 'show', id, '--json'),
      cli('accounts', 'show', id),
    ]);
    expect(JSON.parse(listJson.stdout)).toEqual([
      {
        id,
        name: 'acme',
        email: null,
        plan: 'pro',
        prediction_plan: 'none',
        status: 'active',
        disabled_at: null,
        changed_at: null,
        created_at: expect.any(String),
        live_keys: 1,
      },
    ]);
    expect(listHuman.stdout).toMatch(/^ID +NAME +EMAIL +PLAN +PREDICTION +LIVE KEYS +STATUS +CREATED$/m);
    expect(listHuman.stdout).toMatch(new RegExp(`^${id} +acme +- +pro +none +1 +active +\\d{4}-`, 'm'));
    expect(JSON.parse(showJson.stdout)).toMatchObject({
      id,
      keys: [{ id: created.id, prefix: created.key.slice(0, 10), name: 'acme', state: 'live', expires_at: null, last_used_at: null, revoked_at: null }],
    });
    expect(showHuman.stdout).toMatch(new RegExp(`^Account ${id} \\(acme\\): active$`, 'm'));
    expect(showHuman.stdout).toMatch(new RegExp(`^${created.id} +mgw_\\w{6}… +acme +live +\\d{4}-\\S+ +- +-$`, 'm'));
    for (const r of [listJson, listHuman, showJson, showHuman]) expect(r.stdout).not.toContain(created.key);

    const [unknownId, unknownEmail, badChoice, neither, badLimit] = await Promise.all([
      cli('accounts', 'show', 'acct_doesnotexist'),
      cli('accounts', 'disable', 'nobody@example.com'),
      cli('accounts', 'set-plan', id, '--market-data', 'gold'),
      cli('accounts', 'set-plan', id),
      cli('accounts', 'activity', id, '--limit', '0'),
    ]);
    expectUserError(unknownId, /^error: no account with id acct_doesnotexist$/m);
    expectUserError(unknownEmail, /^error: no account has a user with email nobody@example\.com$/m);
    expectUserError(badChoice, /--market-data.*'gold'.*free, pro, enterprise/);
    expectUserError(neither, /give --market-data, --prediction, or both/);
    expectUserError(badLimit, /--limit.*1 to 1000/);
    const activity = JSON.parse((await cli('accounts', 'activity', id, '--json')).stdout) as { kind: string; detail: string }[];
    expect(activity).toEqual([
      expect.objectContaining({ kind: 'key_created', detail: `key ${created.id} "acme" created with the account`, client_address: null }),
    ]);
  });
});
