/**
 * `keys create|rotate|revoke|set|list`: accounts and API keys (D2), created, rotated and revoked through
 * the rules every front shares (src/auth/key-management.ts). The plaintext key is printed once and never stored.
 */
import { type Command, Option } from 'commander';
import { CLI_ACTOR, type IssuedKey, issueKey, keyState, openAccount, revokeKey, rotateKey } from '../auth/key-management.js';
import { MARKET_DATA_PLANS, MAX_LIVE_KEYS_PER_ACCOUNT, PREDICTION_PLANS, type MarketDataPlan, type PredictionPlan } from '../domain/account.js';
import type { ApiKeyListing } from '../store/accounts.js';
import { CliError } from './errors.js';
import { isoOrNull, printJson, printLines, printTable } from './output.js';
import { parseIsoTimestamp, parseNonEmpty } from './parse.js';
import { withStore } from './context.js';
import { OPERATOR_SCOPE } from '../domain/scope.js';

interface CreateOptions {
  plan: MarketDataPlan;
  predictionPlan: PredictionPlan;
  name: string;
  account?: string;
  anyOperation?: boolean;
  expires?: number;
  json?: boolean;
}

const ANY_OPERATION_HELP = 'exempt the key from trusted-document enforcement: it may send any GraphQL operation';
const EXPIRES_HELP = 'the key stops working then: a date (UTC midnight) or a date-time with a zone, in the future, e.g. 2027-01-31T18:00:00Z';
const EXEMPT = 'exempt from trusted-document enforcement (it may send any GraphQL operation)';
/** When running servers see a change to a key they have cached. */
const APPLIED = 'running servers apply this when their cached entry of the key expires (KEY_CACHE_TTL_MS, 60 s by default)';

export function registerKeys(program: Command): void {
  const keys = program.command('keys').description('manage accounts and their API keys');

  keys
    .command('create')
    .description(
      `create an account with a new API key, or with --account another key on an existing account (at most ${MAX_LIVE_KEYS_PER_ACCOUNT} live keys each); the key is shown once`,
    )
    .addOption(new Option('--plan <plan>', 'market-data plan of the new account').choices(MARKET_DATA_PLANS).default('free'))
    .addOption(new Option('--prediction-plan <plan>', 'prediction plan of the new account').choices(PREDICTION_PLANS).default('none'))
    .addOption(new Option('--account <id>', 'add the key to this account (acct_...); its plans and quotas are shared').conflicts(['plan', 'predictionPlan']))
    .option('--name <text>', 'a label for the account and key', parseNonEmpty, 'default')
    .option('--any-operation', ANY_OPERATION_HELP)
    .option('--expires <date>', EXPIRES_HELP, parseIsoTimestamp)
    .option('--json', 'print one JSON object')
    .action(async (options: CreateOptions) => printIssued(await createKey(options), options));

  keys
    .command('rotate')
    .description('issue a new key on the account of a key; the old key keeps working until revoked (or at once with --revoke-old)')
    .argument('<id>', 'key id (key_...) to replace')
    .option('--revoke-old', 'revoke the old key now instead of after your clients switch')
    .option('--expires <date>', `${EXPIRES_HELP} (default: the old key's expiry, if any)`, parseIsoTimestamp)
    .option('--json', 'print one JSON object')
    .action(async (id: string, options: { revokeOld?: boolean; expires?: number; json?: boolean }) => rotate(id, options));

  keys
    .command('revoke')
    .description('revoke a key; running servers refuse it within 2 s')
    .argument('<id>', 'key id (key_...)')
    .action(async (id: string) => revoke(id));

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
  const input = { name: options.name, anyOperation: options.anyOperation === true, expiresAt: options.expires };
  return withStore(async (store) => {
    if (!options.account) return openAccount(store, { ...input, marketDataPlan: options.plan, predictionPlan: options.predictionPlan }, Date.now(), CLI_ACTOR);
    const account = await store.accounts.findAccount(options.account);
    if (!account) throw new CliError(`no account with id ${options.account} (see: keys list)`);
    return issueKey(store, account, input, Date.now(), CLI_ACTOR);
  });
}

async function rotate(id: string, options: { revokeOld?: boolean; expires?: number; json?: boolean }): Promise<void> {
  const issued = await withStore(async (store) => {
    // The rules refuse a revoked key too; here the operator also learns the command to run instead.
    const old = await store.accounts.findKeyById(id);
    if (old && old.revokedAt !== null) throw new CliError(`key ${id} is revoked; create a key on its account instead: keys create --account ${old.accountId}`);
    return rotateKey(store, id, Date.now(), CLI_ACTOR, { scope: OPERATOR_SCOPE, revokeOld: options.revokeOld === true, expiresAt: options.expires });
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
      expires_at: isoOrNull(record.expiresAt),
    });
    if (note) process.stderr.write(`${note}\n`);
    return;
  }
  printLines(
    `Created key ${record.id} for account ${account.id}`,
    `  name: ${record.name}, plan: ${account.marketDataPlan}, prediction plan: ${account.predictionPlan}`,
    ...(record.anyOperation ? [`  ${EXEMPT}`] : []),
    ...(record.expiresAt !== null ? [`  expires ${isoOrNull(record.expiresAt)}: running servers refuse it from then on`] : []),
    '',
    `  ${key}`,
    '',
    'Store this key now: it will not be shown again (only its hash is kept).',
    ...(note ? [note] : []),
  );
}

async function revoke(id: string): Promise<void> {
  const { key, already } = await withStore((store) => revokeKey(store, id, Date.now(), CLI_ACTOR, OPERATOR_SCOPE));
  printLines(
    already
      ? `Key ${id} was already revoked at ${isoOrNull(key.revokedAt)}.`
      : `Revoked key ${id} at ${isoOrNull(key.revokedAt)}; running servers refuse it within 2 s.`,
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
  const now = Date.now();
  printTable(
    ['ID', 'PREFIX', 'ACCOUNT', 'NAME', 'PLAN', 'PREDICTION', 'ANY OPERATION', 'CREATED', 'REVOKED', 'EXPIRES'],
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
      k.expiresAt === null ? '-' : `${isoOrNull(k.expiresAt)}${keyState(k, now) === 'expired' ? ' (expired)' : ''}`,
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
    expires_at: isoOrNull(k.expiresAt),
  };
}
