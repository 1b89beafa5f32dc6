/** `keys create|rotate|revoke|list`: accounts and API keys (D2). The plaintext key is printed once and never stored. */
import { type Command, Option } from 'commander';
import { displayPrefix, generateApiKey, hashApiKey } from '../auth/api-key.js';
import { MARKET_DATA_PLANS, PREDICTION_PLANS, type Account, type MarketDataPlan, type PredictionPlan } from '../domain/account.js';
import type { ApiKeyListing, ApiKeyRecord } from '../store/accounts.js';
import type { Store } from '../store/index.js';
import { CliError } from './errors.js';
import { isoOrNull, printJson, printLines, printTable } from './output.js';
import { parseNonEmpty } from './parse.js';
import { withStore } from './context.js';

interface CreateOptions {
  plan: MarketDataPlan;
  predictionPlan: PredictionPlan;
  name: string;
  account?: string;
  json?: boolean;
}

/** A new key, as printed: the plaintext once, with the account it belongs to. */
interface IssuedKey {
  key: string;
  record: ApiKeyRecord;
  account: Account;
}

export function registerKeys(program: Command): void {
  const keys = program.command('keys').description('manage accounts and their API keys');

  keys
    .command('create')
    .description('create an account with a new API key, or with --account a second key on an existing account (the key is shown once)')
    .addOption(new Option('--plan <plan>', 'market-data plan of the new account').choices(MARKET_DATA_PLANS).default('free'))
    .addOption(new Option('--prediction-plan <plan>', 'prediction plan of the new account').choices(PREDICTION_PLANS).default('none'))
    .addOption(new Option('--account <id>', 'add the key to this account (acct_...); its plans and quotas are shared').conflicts(['plan', 'predictionPlan']))
    .option('--name <text>', 'a label for the account and key', parseNonEmpty, 'default')
    .option('--json', 'print one JSON object')
    .action(async (options: CreateOptions) => printIssued(await (options.account ? addKey(options.account, options.name) : createKey(options)), options));

  keys
    .command('rotate')
    .description('issue a new key on the account of a key; the old key keeps working until revoked (or at once with --revoke-old)')
    .argument('<id>', 'key id (key_...) to replace')
    .option('--revoke-old', 'revoke the old key now instead of after your clients switch')
    .option('--json', 'print one JSON object')
    .action(async (id: string, options: { revokeOld?: boolean; json?: boolean }) => rotateKey(id, options));

  keys
    .command('revoke')
    .description('revoke a key; running servers refuse it within 2 s')
    .argument('<id>', 'key id (key_...)')
    .action(async (id: string) => revokeKey(id));

  keys
    .command('list')
    .description('list keys (never the key itself)')
    .option('--json', 'print a JSON array')
    .action(async (options: { json?: boolean }) => listKeys(options));
}

async function createKey(options: CreateOptions): Promise<IssuedKey> {
  const key = generateApiKey();
  const { account, key: record } = await withStore((store) =>
    store.accounts.createAccountWithKey({
      name: options.name,
      marketDataPlan: options.plan,
      predictionPlan: options.predictionPlan,
      keyHash: hashApiKey(key),
      displayPrefix: displayPrefix(key),
      now: Date.now(),
    }),
  );
  return { key, record, account };
}

/** A second key on an existing account, named after `name`. */
async function addKey(accountId: string, name: string, store?: Store): Promise<IssuedKey> {
  const add = async (s: Store) => {
    const key = generateApiKey();
    const added = await s.accounts.addKey({ accountId, name, keyHash: hashApiKey(key), displayPrefix: displayPrefix(key), now: Date.now() });
    if (!added) throw new CliError(`no account with id ${accountId} (see: keys list)`);
    return { key, record: added.key, account: added.account };
  };
  return store ? add(store) : withStore(add);
}

async function rotateKey(id: string, options: { revokeOld?: boolean; json?: boolean }): Promise<void> {
  const issued = await withStore(async (store) => {
    const old = await store.accounts.findKeyById(id);
    if (!old) throw new CliError(`no key with id ${id} (see: keys list)`);
    if (old.revokedAt !== null) throw new CliError(`key ${id} is revoked; create a key on its account instead: keys create --account ${old.accountId}`);
    const fresh = await addKey(old.accountId, old.name, store);
    if (options.revokeOld) await store.accounts.revokeKey(id, Date.now());
    return fresh;
  });
  printIssued(
    issued,
    options,
    options.revokeOld ? `Key ${id} is revoked; running servers refuse it within 2 s.` : `Key ${id} keeps working until you revoke it: keys revoke ${id}`,
  );
}

function printIssued({ key, record, account }: IssuedKey, options: { json?: boolean }, note?: string): void {
  if (options.json) {
    printJson({
      id: record.id,
      key,
      account_id: account.id,
      plan: account.marketDataPlan,
      prediction_plan: account.predictionPlan,
      name: record.name,
      created_at: isoOrNull(record.createdAt),
    });
    if (note) process.stderr.write(`${note}\n`);
    return;
  }
  printLines(
    `Created key ${record.id} for account ${account.id}`,
    `  name: ${record.name}, plan: ${account.marketDataPlan}, prediction plan: ${account.predictionPlan}`,
    '',
    `  ${key}`,
    '',
    'Store this key now: it will not be shown again (only its hash is kept).',
    ...(note ? [note] : []),
  );
}

async function revokeKey(id: string): Promise<void> {
  const revokedAt = await withStore(async (store) => {
    const existing = await store.accounts.findKeyById(id);
    if (!existing) throw new CliError(`no key with id ${id} (see: keys list)`);
    if (existing.revokedAt !== null) return { already: true, at: existing.revokedAt };
    await store.accounts.revokeKey(id, Date.now());
    const after = await store.accounts.findKeyById(id);
    return { already: false, at: after?.revokedAt ?? Date.now() };
  });
  printLines(
    revokedAt.already
      ? `Key ${id} was already revoked at ${isoOrNull(revokedAt.at)}.`
      : `Revoked key ${id} at ${isoOrNull(revokedAt.at)}; running servers refuse it within 2 s.`,
  );
}

async function listKeys(options: { json?: boolean }): Promise<void> {
  const keys = await withStore((store) => store.accounts.listKeys());
  if (options.json) {
    printJson(keys.map(toJson));
    return;
  }
  if (keys.length === 0) {
    printLines('No keys yet (create one with: keys create).');
    return;
  }
  printTable(
    ['ID', 'PREFIX', 'ACCOUNT', 'NAME', 'PLAN', 'PREDICTION', 'CREATED', 'REVOKED'],
    keys.map((k) => [
      k.id,
      `${k.displayPrefix}…`,
      k.accountId,
      k.name,
      k.marketDataPlan,
      k.predictionPlan,
      isoOrNull(k.createdAt) ?? '',
      isoOrNull(k.revokedAt) ?? '-',
    ]),
  );
}

/** Listed fields are spelled out so a new column (the hash, say) can never leak by accident. */
function toJson(k: ApiKeyListing) {
  return {
    id: k.id,
    prefix: k.displayPrefix,
    account_id: k.accountId,
    name: k.name,
    plan: k.marketDataPlan,
    prediction_plan: k.predictionPlan,
    created_at: isoOrNull(k.createdAt),
    revoked_at: isoOrNull(k.revokedAt),
  };
}
