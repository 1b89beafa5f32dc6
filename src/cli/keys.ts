/** `keys create|revoke|list`: accounts and API keys (D2). The plaintext key is printed once and never stored. */
import { type Command, Option } from 'commander';
import { displayPrefix, generateApiKey, hashApiKey } from '../auth/api-key.js';
import { MARKET_DATA_PLANS, PREDICTION_PLANS, type MarketDataPlan, type PredictionPlan } from '../domain/account.js';
import type { ApiKeyListing } from '../store/accounts.js';
import { CliError } from './errors.js';
import { isoOrNull, printJson, printLines, printTable } from './output.js';
import { parseNonEmpty } from './parse.js';
import { withStore } from './context.js';

interface CreateOptions {
  plan: MarketDataPlan;
  predictionPlan: PredictionPlan;
  name: string;
  json?: boolean;
}

export function registerKeys(program: Command): void {
  const keys = program.command('keys').description('manage accounts and their API keys');

  keys
    .command('create')
    .description('create an account with a new API key (the key is shown once)')
    .addOption(new Option('--plan <plan>', 'market-data plan').choices(MARKET_DATA_PLANS).default('free'))
    .addOption(new Option('--prediction-plan <plan>', 'prediction plan').choices(PREDICTION_PLANS).default('none'))
    .option('--name <text>', 'a label for the account and key', parseNonEmpty, 'default')
    .option('--json', 'print one JSON object')
    .action(async (options: CreateOptions) => createKey(options));

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

async function createKey(options: CreateOptions): Promise<void> {
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
    return;
  }
  printLines(
    `Created key ${record.id} for account ${account.id}`,
    `  name: ${record.name}, plan: ${account.marketDataPlan}, prediction plan: ${account.predictionPlan}`,
    '',
    `  ${key}`,
    '',
    'Store this key now: it will not be shown again (only its hash is kept).',
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
    ['ID', 'PREFIX', 'NAME', 'PLAN', 'PREDICTION', 'CREATED', 'REVOKED'],
    keys.map((k) => [
      k.id,
      `${k.displayPrefix}…`,
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
