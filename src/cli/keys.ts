/** `keys create|rotate|revoke|set|list`: accounts and API keys (D2). The plaintext key is printed once and never stored. */
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
  anyOperation?: boolean;
  json?: boolean;
}

/** A new key, as printed: the plaintext once, with the account it belongs to. */
interface IssuedKey {
  key: string;
  record: ApiKeyRecord;
  account: Account;
}

const ANY_OPERATION_HELP = 'exempt the key from trusted-document enforcement: it may send any GraphQL operation';
const EXEMPT = 'exempt from trusted-document enforcement (it may send any GraphQL operation)';
/** When running servers see a change to a key they have cached. */
const APPLIED = 'running servers apply this when their cached entry of the key expires (KEY_CACHE_TTL_MS, 60 s by default)';

export function registerKeys(program: Command): void {
  const keys = program.command('keys').description('manage accounts and their API keys');

  keys
    .command('create')
    .description('create an account with a new API key, or with --account a second key on an existing account (the key is shown once)')
    .addOption(new Option('--plan <plan>', 'market-data plan of the new account').choices(MARKET_DATA_PLANS).default('free'))
    .addOption(new Option('--prediction-plan <plan>', 'prediction plan of the new account').choices(PREDICTION_PLANS).default('none'))
    .addOption(new Option('--account <id>', 'add the key to this account (acct_...); its plans and quotas are shared').conflicts(['plan', 'predictionPlan']))
    .option('--name <text>', 'a label for the account and key', parseNonEmpty, 'default')
    .option('--any-operation', ANY_OPERATION_HELP)
    .option('--json', 'print one JSON object')
    .action(async (options: CreateOptions) =>
      printIssued(
        await (options.account ? addKey({ accountId: options.account, name: options.name, anyOperation: options.anyOperation === true }) : createKey(options)),
        options,
      ),
    );

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
    .command('set')
    .description('change a key: exempt it from trusted-document enforcement (--any-operation), or end that (--no-any-operation)')
    .argument('<id>', 'key id (key_...)')
    .option('--any-operation', ANY_OPERATION_HELP)
    .option('--no-any-operation', 'end the exemption: where trusted documents are enforced, the key may send only those')
    .option('--json', 'print one JSON object')
    .action(async (id: string, options: { anyOperation?: boolean; json?: boolean }, command: Command) => {
      if (options.anyOperation === undefined) command.error('error: give --any-operation or --no-any-operation');
      await setAnyOperation(id, options.anyOperation, options);
    });

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
      anyOperation: options.anyOperation === true,
    }),
  );
  return { key, record, account };
}

/** A second key on an existing account. */
async function addKey(input: { accountId: string; name: string; anyOperation: boolean }, store?: Store): Promise<IssuedKey> {
  const { accountId } = input;
  const add = async (s: Store) => {
    const key = generateApiKey();
    const added = await s.accounts.addKey({ ...input, keyHash: hashApiKey(key), displayPrefix: displayPrefix(key), now: Date.now() });
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
    // The new key replaces the old one in the same client: it keeps its exemption.
    const fresh = await addKey({ accountId: old.accountId, name: old.name, anyOperation: old.anyOperation }, store);
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
      any_operation: record.anyOperation,
      created_at: isoOrNull(record.createdAt),
    });
    if (note) process.stderr.write(`${note}\n`);
    return;
  }
  printLines(
    `Created key ${record.id} for account ${account.id}`,
    `  name: ${record.name}, plan: ${account.marketDataPlan}, prediction plan: ${account.predictionPlan}`,
    ...(record.anyOperation ? [`  ${EXEMPT}`] : []),
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

async function setAnyOperation(id: string, anyOperation: boolean, options: { json?: boolean }): Promise<void> {
  const { key, already } = await withStore(async (store) => {
    const existing = await store.accounts.findKeyById(id);
    if (!existing) throw new CliError(`no key with id ${id} (see: keys list)`);
    if (existing.revokedAt !== null) throw new CliError(`key ${id} is revoked; it cannot send anything`);
    if (existing.anyOperation !== anyOperation) await store.accounts.setAnyOperation(id, anyOperation);
    return { key: { ...existing, anyOperation }, already: existing.anyOperation === anyOperation };
  });
  if (options.json) {
    printJson(toJson({ ...key, marketDataPlan: key.account.marketDataPlan, predictionPlan: key.account.predictionPlan }));
    return;
  }
  if (already) printLines(anyOperation ? `Key ${id} was already ${EXEMPT}.` : `Key ${id} was not exempt from trusted-document enforcement; nothing changed.`);
  else if (anyOperation) printLines(`Key ${id} is now ${EXEMPT}; ${APPLIED}.`);
  else printLines(`Key ${id} is no longer exempt from trusted-document enforcement (where it is enforced, it may send trusted documents only); ${APPLIED}.`);
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
    ['ID', 'PREFIX', 'ACCOUNT', 'NAME', 'PLAN', 'PREDICTION', 'ANY OPERATION', 'CREATED', 'REVOKED'],
    keys.map((k) => [
      k.id,
      `${k.displayPrefix}…`,
      k.accountId,
      k.name,
      k.marketDataPlan,
      k.predictionPlan,
      k.anyOperation ? 'yes' : '-',
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
    any_operation: k.anyOperation,
    created_at: isoOrNull(k.createdAt),
    revoked_at: isoOrNull(k.revokedAt),
  };
}
