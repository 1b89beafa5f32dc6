/**
 * The operator CLI (D13) end to end against a private SQLite DATA_DIR: most commands run in this
 * process (cli-in-process.ts: the bin's command tree and error report, its environment and
 * output, no Node start-up); the bin itself runs as an operator runs it (a child process of the
 * built dist/) where only a process shows the behaviour: its exit code on a bad configuration,
 * `--version`, `--verbose` on stderr and a relative DATA_DIR.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildProgram } from '../../src/cli/program.js';
import type { Command } from 'commander';
import { createStore, openStore } from '../../src/store/index.js';
import { REPO_ROOT, runCli, type CliResult } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';

const KEY_PATTERN = /^mgw_[0-9A-Za-z]{32,}$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let dataDir: string;
const cli = (...args: string[]) => runCliInProcess(args, { DATA_DIR: dataDir });

/** A user error: non-zero exit, a message on stderr, nothing on stdout, no stack trace. */
function expectUserError(result: CliResult, message: RegExp): void {
  expect(result.code).not.toBe(0);
  expect(result.stderr).toMatch(message);
  expect(result.stderr).not.toContain('    at ');
  expect(result.stdout).toBe('');
}

interface CreatedKey {
  id: string;
  key: string;
  account_id: string;
  plan: string;
  prediction_plan: string;
  name: string;
  any_operation: boolean;
  created_at: string;
  expires_at: string | null;
}

let proKey: CreatedKey;
let freeKey: CreatedKey;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mgw-cli-'));
  // Markets exist only once the server has ingested; seed one so alerts have a known symbol.
  const store = createStore(await openStore({ dataDir }));
  await store.markets.upsertMarkets([{ symbol: 'BTC/USD', name: 'Bitcoin', type: 'crypto', source: 'demo', staleAfterMs: 60_000, halted: false }]);
  await store.connection.close();

  const [pro, free] = await Promise.all([
    cli('keys', 'create', '--plan', 'pro', '--prediction-plan', 'pro', '--name', 'acme', '--json'),
    cli('keys', 'create', '--json'),
  ]);
  expect(pro.code).toBe(0);
  expect(free.code).toBe(0);
  proKey = JSON.parse(pro.stdout) as CreatedKey;
  freeKey = JSON.parse(free.stdout) as CreatedKey;
});

afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('keys', () => {
  it('create --json prints one object with a fresh mgw_ key and the defaults', () => {
    expect(proKey).toEqual({
      id: expect.stringMatching(/^key_/),
      key: expect.stringMatching(KEY_PATTERN),
      account_id: expect.stringMatching(/^acct_/),
      plan: 'pro',
      prediction_plan: 'pro',
      name: 'acme',
      any_operation: false,
      created_at: expect.stringMatching(ISO_MS),
      expires_at: null,
    });
    expect(freeKey).toMatchObject({ plan: 'free', prediction_plan: 'none', name: 'default' });
    expect(freeKey.key).toMatch(KEY_PATTERN);
    expect(freeKey.key).not.toBe(proKey.key);
  });

  it('create (human) shows the key once with a warning; invalid values and configuration are refused', async () => {
    const [human, badPlan, badPrediction, badConfig] = await Promise.all([
      cli('keys', 'create', '--plan', 'enterprise'),
      cli('keys', 'create', '--plan', 'gold'),
      cli('keys', 'create', '--prediction-plan', 'enterprise'),
      runCli(['keys', 'create'], { DATA_DIR: dataDir, DATABASE_URL: 'not a url' }),
    ]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/mgw_[0-9A-Za-z]{32,}/);
    expect(human.stdout).toMatch(/will not be shown again/);
    expectUserError(badPlan, /--plan.*gold.*free, pro, enterprise/);
    expectUserError(badPrediction, /--prediction-plan.*none, pro/);
    expectUserError(badConfig, /invalid configuration: DATABASE_URL/);
  });

  it('never reveals a key: not in the listing, not in the database files', async () => {
    const list = await cli('keys', 'list', '--json');
    expect(list.code).toBe(0);
    const listed = JSON.parse(list.stdout) as Record<string, unknown>[];
    expect(listed.map((k) => k.id)).toEqual(expect.arrayContaining([proKey.id, freeKey.id]));
    expect(listed.find((k) => k.id === proKey.id)).toMatchObject({
      prefix: proKey.key.slice(0, 10),
      plan: 'pro',
      prediction_plan: 'pro',
      revoked_at: null,
    });
    for (const { key } of [proKey, freeKey]) {
      expect(list.stdout).not.toContain(key);
      expect(list.stdout).not.toContain(key.slice(10));
    }
    // Main file, -wal and -shm alike: only the hash may be stored.
    const files = fs.readdirSync(dataDir);
    expect(files.some((f) => f.endsWith('.sqlite'))).toBe(true);
    for (const file of files) {
      const bytes = fs.readFileSync(path.join(dataDir, file));
      expect(bytes.includes(proKey.key)).toBe(false);
      expect(bytes.includes(freeKey.key)).toBe(false);
    }
  });
});

describe('keys exempt from trusted documents', () => {
  it('create --any-operation makes an exempt key and says so; list shows it; rotate keeps it', async () => {
    const [json, human] = await Promise.all([
      cli('keys', 'create', '--any-operation', '--name', 'ops', '--json'),
      cli('keys', 'create', '--account', proKey.account_id, '--any-operation'),
    ]);
    expect(json.code).toBe(0);
    const exempt = JSON.parse(json.stdout) as CreatedKey;
    expect(exempt).toMatchObject({ name: 'ops', any_operation: true });
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^ {2}exempt from trusted-document enforcement \(it may send any GraphQL operation\)$/m);
    expect((await cli('keys', 'create')).stdout).not.toMatch(/exempt/);

    const rotated = JSON.parse((await cli('keys', 'rotate', exempt.id, '--json')).stdout) as CreatedKey;
    expect(rotated).toMatchObject({ account_id: exempt.account_id, any_operation: true });

    const [listJson, listHuman] = await Promise.all([cli('keys', 'list', '--json'), cli('keys', 'list')]);
    const listed = JSON.parse(listJson.stdout) as { id: string; any_operation: boolean }[];
    expect(listed.find((k) => k.id === exempt.id)?.any_operation).toBe(true);
    expect(listed.find((k) => k.id === proKey.id)?.any_operation).toBe(false);
    expect(listHuman.stdout).toMatch(/^ID +PREFIX +ACCOUNT +NAME +PLAN +PREDICTION +ANY OPERATION +CREATED +REVOKED +EXPIRES$/m);
    expect(listHuman.stdout).toMatch(new RegExp(`^${exempt.id} .* ops +free +none +yes +\\d{4}-`, 'm'));
    expect(listHuman.stdout).toMatch(new RegExp(`^${proKey.id} .* acme +pro +pro +- +\\d{4}-`, 'm'));
    for (const { key } of [exempt, rotated]) expect(listJson.stdout + listHuman.stdout).not.toContain(key);
  });

  it('set --any-operation and --no-any-operation change an existing key; anything else is refused', async () => {
    const key = JSON.parse((await cli('keys', 'create', '--json')).stdout) as CreatedKey;
    const on = await cli('keys', 'set', key.id, '--any-operation');
    expect(on.code).toBe(0);
    expect(on.stdout).toBe(
      `Key ${key.id} is now exempt from trusted-document enforcement (it may send any GraphQL operation); running servers apply this when their cached entry of the key expires (KEY_CACHE_TTL_MS, 60 s by default).\n`,
    );
    expect((await cli('keys', 'set', key.id, '--any-operation')).stdout).toMatch(/^Key key_\w+ was already exempt/);

    const off = await cli('keys', 'set', key.id, '--no-any-operation', '--json');
    expect(off.code).toBe(0);
    expect(JSON.parse(off.stdout)).toEqual({
      id: key.id,
      prefix: key.key.slice(0, 10),
      account_id: key.account_id,
      name: 'default',
      plan: 'free',
      prediction_plan: 'none',
      any_operation: false,
      created_at: key.created_at,
      revoked_at: null,
      expires_at: null,
    });
    expect(off.stdout).not.toContain(key.key);
    expect((await cli('keys', 'set', key.id, '--no-any-operation')).stdout).toMatch(/was not exempt from trusted-document enforcement; nothing changed/);

    await cli('keys', 'revoke', key.id);
    const [neither, unknown, revoked] = await Promise.all([
      cli('keys', 'set', key.id),
      cli('keys', 'set', 'key_doesnotexist', '--any-operation'),
      cli('keys', 'set', key.id, '--any-operation'),
    ]);
    expectUserError(neither, /give --any-operation or --no-any-operation/);
    expectUserError(unknown, /no key with id key_doesnotexist/);
    expectUserError(revoked, new RegExp(`key ${key.id} is revoked`));
  });
});

describe('alerts create', () => {
  it('creates an alert for a pro key on a known symbol (case-insensitive)', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const [above, signal] = await Promise.all([
      cli('alerts', 'create', '--key-id', proKey.id, '--symbol', 'btc/usd', '--above', '100000', '--expires-at', expiresAt, '--json'),
      cli('alerts', 'create', '--key-id', proKey.id, '--symbol', 'BTC/USD', '--signal', 'rsi_overbought'),
    ]);
    expect(above.code).toBe(0);
    expect(JSON.parse(above.stdout)).toEqual({
      id: expect.stringMatching(/^alrt_/),
      account_id: proKey.account_id,
      status: 'active',
      symbol: 'BTC/USD',
      kind: 'price_above',
      threshold: 100000,
      signal: null,
      created_at: expect.stringMatching(ISO_MS),
      expires_at: expiresAt,
      triggered_at: null,
    });
    expect(signal.code).toBe(0);
    expect(signal.stdout).toMatch(/alrt_\w+ \(active\): BTC\/USD signal rsi_overbought/);
  });

  it('refuses unknown symbols, free plans, unknown keys and bad signal names', async () => {
    const [unknownSymbol, freePlan, unknownKey, badSignal] = await Promise.all([
      cli('alerts', 'create', '--key-id', proKey.id, '--symbol', 'NOPE/USD', '--above', '1'),
      cli('alerts', 'create', '--key-id', freeKey.id, '--symbol', 'BTC/USD', '--above', '1'),
      cli('alerts', 'create', '--key-id', 'key_doesnotexist', '--symbol', 'BTC/USD', '--below', '1'),
      cli('alerts', 'create', '--key-id', proKey.id, '--symbol', 'BTC/USD', '--signal', 'moon'),
    ]);
    expectUserError(unknownSymbol, /unknown symbol: NOPE\/USD/);
    expectUserError(freePlan, /pro or enterprise/);
    expectUserError(unknownKey, /no key with id key_doesnotexist/);
    expectUserError(badSignal, /signal must be one of/);
  });

  it('needs exactly one condition and strict numbers', async () => {
    const base = ['alerts', 'create', '--key-id', proKey.id, '--symbol', 'BTC/USD'];
    const [none, two, notNumber, blank, badExpiry] = await Promise.all([
      cli(...base),
      cli(...base, '--above', '1', '--change-above', '2'),
      cli(...base, '--above', 'abc'),
      cli(...base, '--below', ''),
      cli(...base, '--above', '1', '--expires-at', '2026-02-30'),
    ]);
    expectUserError(none, /exactly one condition/);
    expectUserError(two, /--above.*cannot be used with.*--change-above/);
    expectUserError(notNumber, /--above.*'abc'.*decimal number/);
    expectUserError(blank, /--below.*decimal number/);
    expectUserError(badExpiry, /--expires-at.*ISO 8601/);
  });
});

describe('keys revoke', () => {
  it('revokes a key, shows it in the listing, and refuses it for alerts; unknown ids fail', async () => {
    const [revoked, unknown] = await Promise.all([cli('keys', 'revoke', freeKey.id), cli('keys', 'revoke', 'key_doesnotexist')]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toMatch(/within 2 s/);
    expectUserError(unknown, /no key with id key_doesnotexist/);

    const [list, again, alert] = await Promise.all([
      cli('keys', 'list', '--json'),
      cli('keys', 'revoke', freeKey.id),
      cli('alerts', 'create', '--key-id', freeKey.id, '--symbol', 'BTC/USD', '--above', '1'),
    ]);
    const listed = JSON.parse(list.stdout) as { id: string; revoked_at: string | null }[];
    expect(listed.find((k) => k.id === freeKey.id)?.revoked_at).toMatch(ISO_MS);
    expect(listed.find((k) => k.id === proKey.id)?.revoked_at).toBeNull();
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/already revoked/);
    expectUserError(alert, /revoked/);
  });
});

describe('keys rotation', () => {
  it('create --account adds a key to an account; rotate issues one and keeps or revokes the old', async () => {
    const [added, withPlan, noAccount] = await Promise.all([
      cli('keys', 'create', '--account', proKey.account_id, '--name', 'ci', '--json'),
      cli('keys', 'create', '--account', proKey.account_id, '--plan', 'enterprise'),
      cli('keys', 'create', '--account', 'acct_doesnotexist'),
    ]);
    expect(added.code).toBe(0);
    // The account's plans, not the defaults: plans belong to the account.
    expect(JSON.parse(added.stdout)).toMatchObject({
      account_id: proKey.account_id,
      plan: 'pro',
      prediction_plan: 'pro',
      name: 'ci',
      key: expect.stringMatching(KEY_PATTERN),
    });
    expectUserError(withPlan, /--account.*cannot be used with.*--plan/);
    expectUserError(noAccount, /no account with id acct_doesnotexist/);

    const addedId = (JSON.parse(added.stdout) as CreatedKey).id;
    const [kept, revoked] = await Promise.all([cli('keys', 'rotate', proKey.id, '--json'), cli('keys', 'rotate', addedId, '--revoke-old', '--json')]);
    expect(kept.code).toBe(0);
    expect(revoked.code).toBe(0);
    const keptNew = JSON.parse(kept.stdout) as CreatedKey;
    const revokedNew = JSON.parse(revoked.stdout) as CreatedKey;
    expect(keptNew).toMatchObject({ account_id: proKey.account_id, name: 'acme', plan: 'pro' });
    expect(revokedNew).toMatchObject({ account_id: proKey.account_id, name: 'ci' });
    expect(kept.stderr).toMatch(`Key ${proKey.id} keeps working until you revoke it`);

    const listed = JSON.parse((await cli('keys', 'list', '--json')).stdout) as { id: string; revoked_at: string | null }[];
    const revokedAt = (id: string) => listed.find((k) => k.id === id)?.revoked_at;
    expect(revokedAt(proKey.id)).toBeNull();
    expect(revokedAt(keptNew.id)).toBeNull();
    expect(revokedAt(addedId)).toMatch(ISO_MS);
    expect(revokedAt(revokedNew.id)).toBeNull();

    expectUserError(await cli('keys', 'rotate', addedId), /is revoked; create a key on its account instead: keys create --account acct_/);
    expectUserError(await cli('keys', 'rotate', 'key_doesnotexist'), /no key with id key_doesnotexist/);
  });
});

describe('alerts list and cancel', () => {
  it("lists every account's alerts or one account's, filters by status, and cancels by id", async () => {
    const other = JSON.parse((await cli('keys', 'create', '--plan', 'enterprise', '--json')).stdout) as CreatedKey;
    const created = await Promise.all([
      cli('alerts', 'create', '--key-id', proKey.id, '--symbol', 'BTC/USD', '--below', '1', '--json'),
      cli('alerts', 'create', '--key-id', other.id, '--symbol', 'BTC/USD', '--above', '1000000000', '--json'),
    ]);
    const [mine, theirs] = created.map((r) => JSON.parse(r.stdout) as { id: string });

    const [all, byKey, byAccount, triggered, human, badStatus, bothFilters] = await Promise.all([
      cli('alerts', 'list', '--json'),
      cli('alerts', 'list', '--key-id', other.id, '--json'),
      cli('alerts', 'list', '--account', proKey.account_id, '--status', 'active', '--json'),
      cli('alerts', 'list', '--status', 'triggered', '--json'),
      cli('alerts', 'list', '--account', other.account_id),
      cli('alerts', 'list', '--status', 'cancelled'),
      cli('alerts', 'list', '--key-id', other.id, '--account', other.account_id),
    ]);
    const ids = (r: CliResult) => (JSON.parse(r.stdout) as { id: string }[]).map((a) => a.id);
    expect(ids(all)).toEqual(expect.arrayContaining([mine!.id, theirs!.id]));
    expect(ids(byKey)).toEqual([theirs!.id]);
    expect(ids(byAccount)).toContain(mine!.id);
    expect(ids(byAccount)).not.toContain(theirs!.id);
    expect(ids(triggered)).toEqual([]);
    expect(human.stdout).toMatch(/^ID +STATUS +SYMBOL +CONDITION +ACCOUNT/);
    expect(human.stdout).toMatch(new RegExp(`${theirs!.id} +active +BTC/USD +price_above 1000000000 +${other.account_id}`));
    expectUserError(badStatus, /--status.*'cancelled'.*active, triggered, expired/);
    expectUserError(bothFilters, /--key-id.*cannot be used with.*--account/);

    const cancelled = await cli('alerts', 'cancel', theirs!.id, '--json');
    expect(cancelled.code).toBe(0);
    expect(JSON.parse(cancelled.stdout)).toMatchObject({ id: theirs!.id, status: 'active', account_id: other.account_id });
    expect(ids(await cli('alerts', 'list', '--key-id', other.id, '--json'))).toEqual([]);
    expectUserError(await cli('alerts', 'cancel', theirs!.id), new RegExp(`no alert with id ${theirs!.id}`));
  });
});

describe('webhooks', () => {
  it('creates for Enterprise only, shows the secret once, and manages endpoints and deliveries by id', async () => {
    const enterprise = JSON.parse((await cli('keys', 'create', '--plan', 'enterprise', '--json')).stdout) as CreatedKey;
    expectUserError(await cli('webhooks', 'create', '--key-id', proKey.id, '--url', 'https://example.com/hook'), /enterprise market-data plan/);
    expectUserError(
      await cli('webhooks', 'create', '--key-id', enterprise.id, '--url', 'https://10.0.0.1/hook'),
      /url refused: 10\.0\.0\.1 is a private address/,
    );
    expectUserError(
      await cli('webhooks', 'create', '--key-id', enterprise.id, '--url', 'http://example.com/hook'),
      /https:\/\/ \(http:\/\/ only where WEBHOOK_ALLOW_HTTP=1\)/,
    );
    expectUserError(await cli('webhooks', 'create', '--url', 'https://example.com/hook'), /give --key-id or --account/);

    const created = await cli(
      'webhooks',
      'create',
      '--account',
      enterprise.account_id,
      '--url',
      'https://example.com/hook',
      '--events',
      'price_alert.expired',
      '--json',
    );
    expect(created.code).toBe(0);
    const endpoint = JSON.parse(created.stdout) as { id: string; secret: string; events: string[]; account_id: string };
    expect(endpoint).toMatchObject({ account_id: enterprise.account_id, events: ['price_alert.expired'], secret: expect.stringMatching(/^whsec_/) });

    const list = await cli('webhooks', 'list', '--key-id', enterprise.id, '--json');
    expect(JSON.parse(list.stdout)).toEqual([expect.objectContaining({ id: endpoint.id, url: 'https://example.com/hook', disabled_at: null })]);
    expect(list.stdout).not.toContain(endpoint.secret);

    const rotated = await cli('webhooks', 'rotate-secret', endpoint.id, '--overlap-hours', '1', '--json');
    const secret = (JSON.parse(rotated.stdout) as { secret: string }).secret;
    expect(secret).not.toBe(endpoint.secret);
    expect((await cli('webhooks', 'list', '--json')).stdout).not.toContain(secret);

    const test = JSON.parse((await cli('webhooks', 'test', endpoint.id, '--json')).stdout) as { id: string; status: string; event_type: string };
    expect(test).toMatchObject({ status: 'pending', event_type: 'webhook.test' });
    const deliveries = JSON.parse((await cli('webhooks', 'deliveries', endpoint.id, '--json')).stdout) as { id: string }[];
    expect(deliveries.map((d) => d.id)).toEqual([test.id]);
    expect((await cli('webhooks', 'replay', test.id)).stdout).toContain(`Queued ${test.id}`);
    expectUserError(await cli('webhooks', 'replay', 'msg_unknown'), /no webhook delivery with id msg_unknown/);
    expectUserError(await cli('webhooks', 'deliveries', endpoint.id, '--limit', '0'), /--limit.*1 to 100/);

    expect((await cli('webhooks', 'delete', endpoint.id)).code).toBe(0);
    expectUserError(await cli('webhooks', 'test', endpoint.id), new RegExp(`no webhook endpoint with id ${endpoint.id}`));
  });
});

describe('documents', () => {
  const FIXTURES = path.join(REPO_ROOT, 'test/fixtures/trusted-documents');
  const apollo = path.join(FIXTURES, 'apollo-persisted-query-manifest.json');
  const codegen = path.join(FIXTURES, 'persisted-documents.json');
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
  let dir: string;
  /** A manifest written to a file of its own. */
  const manifestFile = (name: string, content: unknown) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
    return file;
  };
  const listed = async () => JSON.parse((await cli('documents', 'list', '--json')).stdout) as { id: string; name: string | null; type: string | null }[];

  /** A bad file: one line on stderr (the store is not even opened), nothing on stdout, exit 1. */
  function expectOneLine(result: CliResult, message: RegExp): void {
    expectUserError(result, message);
    expect(result.stderr).toMatch(/^error: [^\n]*\n$/);
  }

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mgw-cli-documents-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('loads either format, each load replacing the last, and lists what is trusted', async () => {
    const empty = await cli('documents', 'list');
    expect(empty).toMatchObject({ code: 0, stdout: 'No trusted documents (load a manifest with: documents load <file>).\n' });

    const first = await cli('documents', 'load', apollo);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(`Loaded 2 trusted documents from ${apollo} (replacing 0); manifest version 1.\n`);
    const fromApollo = JSON.parse(fs.readFileSync(apollo, 'utf8')) as { operations: { id: string; name: string }[] };
    expect(await listed()).toEqual(fromApollo.operations.map((op) => ({ id: op.id, name: op.name, type: 'query', loaded_at: expect.stringMatching(ISO_MS) })));

    const second = await cli('documents', 'load', codegen, '--json');
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual({ loaded: 2, replaced: 2, version: 2 });
    const keys = Object.keys(JSON.parse(fs.readFileSync(codegen, 'utf8')) as Record<string, string>);
    expect((await listed()).map((d) => [d.id, d.name, d.type])).toEqual(keys.map((k) => [k.slice('sha256:'.length), null, null]));

    const human = await cli('documents', 'list');
    expect(human.stdout).toMatch(/^ID +NAME +TYPE$/m);
    expect(human.stdout).toMatch(new RegExp(`^${keys[0]!.slice('sha256:'.length)} +- +-$`, 'm'));
    expect(human.stdout).toMatch(/^2 trusted documents, loaded \d{4}-\d{2}-\d{2}T[\d:.]+Z \(manifest version 2\)\.$/m);
  });

  it('refuses a manifest with operations the schema does not know, naming each; nothing is loaded', async () => {
    const before = await listed();
    const bodies = [
      'query Fine { viewer { accountId } }',
      'query Stale { viewer { accountId email } }',
      'mutation Gone { dropEverything }',
      'query Cut { viewer {',
    ];
    const file = manifestFile('invalid.json', Object.fromEntries(bodies.map((b) => [`sha256:${sha256(b)}`, b])));
    const refused = await cli('documents', 'load', file);
    expectUserError(refused, new RegExp(`^error: ${file}: 3 of 4 trusted documents do not validate against the schema; nothing was loaded:$`, 'm'));
    expect(refused.stderr).toMatch(new RegExp(`^  Stale \\(${sha256(bodies[1]!).slice(0, 12)}\\): Cannot query field "email" on type "Viewer"\\.$`, 'm'));
    expect(refused.stderr).toMatch(/^ {2}Gone \(\w{12}\): /m);
    expect(refused.stderr).toMatch(new RegExp(`^  ${sha256(bodies[3]!).slice(0, 12)}: Syntax Error`, 'm'));
    expect(refused.stderr).not.toMatch(/Fine/);
    expect(await listed()).toEqual(before);
  });

  it('a file that is missing, not JSON or not a manifest is one line and exit 1, never a stack', async () => {
    const sha1Body = 'query Me { viewer { accountId } }';
    const [missing, directory, notJson, wrongFormat, empty, badHash, sha1] = await Promise.all([
      cli('documents', 'load', path.join(dir, 'nope.json')),
      cli('documents', 'load', dir),
      cli('documents', 'load', manifestFile('broken.json', '{\n  "sha256:ab": "query {\n')),
      cli('documents', 'load', path.join(REPO_ROOT, 'package.json')),
      cli('documents', 'load', manifestFile('empty.json', {})),
      cli('documents', 'load', manifestFile('hash.json', { [`sha256:${sha256('query A { viewer { name } }')}`]: 'query B { viewer { name } }' })),
      cli('documents', 'load', manifestFile('sha1.json', { [createHash('sha1').update(sha1Body).digest('hex')]: sha1Body })),
    ]);
    expectOneLine(missing, /^error: cannot read \S+nope\.json: no such file$/m);
    expectOneLine(directory, /^error: cannot read \S+: it is a directory$/m);
    expectOneLine(notJson, /^error: \S+broken\.json is not JSON: /m);
    expectOneLine(
      wrongFormat,
      /package\.json: not a trusted-document manifest: the accepted formats are Apollo's persisted-query manifest .* and graphql-codegen's/,
    );
    expectOneLine(empty, /empty\.json: the manifest lists no documents$/m);
    expectOneLine(
      badHash,
      /hash\.json: entry "sha256:\w+": "sha256:\w+" is not the lowercase hex SHA-256 of its document \(that is \w{64}\); the whole manifest is refused$/m,
    );
    expectOneLine(sha1, /it looks like SHA-1: set graphql-codegen's persistedDocuments\.hashAlgorithm to 'sha256'/);
  });
});

describe('the command line itself', () => {
  /** Every command of the tree, as the words that reach it (`keys rotate`). */
  const commandPaths = (command: Command, prefix: string[] = []): string[][] =>
    command.commands.flatMap((c) => [[...prefix, c.name()], ...commandPaths(c, [...prefix, c.name()])]);

  it('--version prints the package version', async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    const result = await runCli(['--version'], { DATA_DIR: dataDir });
    expect(result).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it('every command has its own help', async () => {
    const paths = commandPaths(buildProgram());
    expect(paths.map((p) => p.join(' '))).toEqual(
      expect.arrayContaining(['keys rotate', 'keys set', 'alerts list', 'alerts cancel', 'documents load', 'start']),
    );
    const results = await Promise.all(paths.map((words) => cli(...words, '--help')));
    results.forEach((result, i) => {
      expect(result.code).toBe(0);
      expect(result.stdout.split('\n')[0]).toMatch(new RegExp(`^Usage: market-gateway ${paths[i]!.join(' ')} `));
    });
  });

  it('says which store it opened with --verbose only, resolves a relative DATA_DIR once, and refuses one that does not exist', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'mgw-cli-dir-'));
    try {
      const quiet = await runCli(['keys', 'list'], { DATA_DIR: path.relative(REPO_ROOT, dataDir) });
      expect(quiet.code).toBe(0);
      expect(quiet.stderr).toBe('');
      for (const args of [
        ['keys', 'list', '--verbose'],
        ['--verbose', 'keys', 'list'],
      ]) {
        const listed = await runCli(args, { DATA_DIR: path.relative(REPO_ROOT, dataDir) });
        expect(listed.code).toBe(0);
        expect(listed.stderr).toBe(`store: SQLite ${path.join(dataDir, 'market-gateway.sqlite')}\n`);
        expect(listed.stdout).toBe(quiet.stdout);
      }

      const missing = path.join(parent, 'typo');
      const refused = await runCli(['keys', 'create'], { DATA_DIR: missing });
      expectUserError(refused, new RegExp(`DATA_DIR ${missing} does not exist: start the server once`));
      expect(fs.existsSync(missing)).toBe(false);
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });
});
