/** `alerts create|list|cancel`: price alerts, created through the same rules as the GraphQL mutation (createPriceAlert). */
import { type Command, Option } from 'commander';
import { createPriceAlert, type CreateAlertInput } from '../alerts/create-alert.js';
import { ALERT_STATUSES, type AlertStatus, type PriceAlert } from '../domain/account.js';
import { normalizeSymbol } from '../domain/symbols.js';
import { CliError } from './errors.js';
import { isoOrNull, printJson, printLines, printTable } from './output.js';
import { parseIsoTimestamp, parseNonEmpty, parseNumber } from './parse.js';
import { withStore } from './context.js';
import { accountScope, OPERATOR_SCOPE } from '../domain/scope.js';

interface CreateOptions {
  keyId: string;
  symbol: string;
  above?: number;
  below?: number;
  changeAbove?: number;
  signal?: string;
  expiresAt?: number;
  json?: boolean;
}

const CONDITIONS = ['above', 'below', 'changeAbove', 'signal'] as const;
type Condition = (typeof CONDITIONS)[number];
const CONDITION_FLAGS = '--above, --below, --change-above or --signal';

/** Each condition option conflicts with the other three, so commander names the offending pair. */
function conditionOption(flags: string, description: string, key: Condition, parse: (value: string) => unknown): Option {
  return new Option(flags, description).conflicts(CONDITIONS.filter((c) => c !== key)).argParser(parse);
}

export function registerAlerts(program: Command): void {
  const alerts = program.command('alerts').description('manage price alerts');

  alerts
    .command('create')
    .description(`create a price alert for the account of a key; exactly one of ${CONDITION_FLAGS}`)
    .requiredOption('--key-id <id>', 'key id (key_...) whose account owns the alert')
    .requiredOption('--symbol <symbol>', 'market symbol, e.g. BTC/USD', parseNonEmpty)
    .addOption(conditionOption('--above <price>', 'when the price is at or above this', 'above', parseNumber))
    .addOption(conditionOption('--below <price>', 'when the price is at or below this', 'below', parseNumber))
    .addOption(conditionOption('--change-above <percent>', 'when |24 h change| reaches this percentage', 'changeAbove', parseNumber))
    .addOption(conditionOption('--signal <name>', 'when this brief signal appears', 'signal', parseNonEmpty))
    .addOption(new Option('--expires-at <iso>', 'expiry, e.g. 2026-12-31T23:59:00Z').argParser(parseIsoTimestamp))
    .option('--json', 'print one JSON object')
    .action(async (options: CreateOptions, command: Command) => {
      // Conflicts cover "two conditions"; commander has no "at least one of", so check it here.
      if (CONDITIONS.every((c) => options[c] === undefined)) {
        command.error(`error: give exactly one condition: ${CONDITION_FLAGS}`);
      }
      await createAlert(options);
    });

  alerts
    .command('list')
    .description("list price alerts, newest first: every account's, or one account's")
    .addOption(new Option('--key-id <id>', 'only the alerts of the account of this key (key_...)').conflicts('account'))
    .option('--account <id>', 'only the alerts of this account (acct_...)')
    .addOption(new Option('--status <status>', 'only alerts in this status').choices(ALERT_STATUSES))
    .option('--symbol <symbol>', 'only alerts on this symbol, e.g. BTC/USD', parseNonEmpty)
    .option('--json', 'print a JSON array')
    .action(async (options: ListOptions) => listAlerts(options));

  alerts
    .command('cancel')
    .description('cancel a price alert: it is deleted and never fires (a triggered or expired one leaves the listings)')
    .argument('<id>', 'alert id (alrt_...)')
    .option('--json', 'print the cancelled alert as one JSON object')
    .action(async (id: string, options: { json?: boolean }) => cancelAlert(id, options));
}

interface ListOptions {
  keyId?: string;
  account?: string;
  status?: AlertStatus;
  symbol?: string;
  json?: boolean;
}

async function listAlerts(options: ListOptions): Promise<void> {
  const alerts = await withStore(async (store) => {
    let accountId = options.account;
    if (options.keyId) {
      const key = await store.accounts.findKeyById(options.keyId);
      if (!key) throw new CliError(`no key with id ${options.keyId} (see: keys list)`);
      accountId = key.accountId;
    }
    const symbol = options.symbol ? normalizeSymbol(options.symbol) : undefined;
    return store.priceAlerts.list({ scope: accountId ? accountScope(accountId) : OPERATOR_SCOPE, status: options.status, symbol });
  });
  if (options.json) {
    printJson(alerts.map(toJson));
    return;
  }
  if (alerts.length === 0) {
    printLines('No alerts match.');
    return;
  }
  printTable(
    ['ID', 'STATUS', 'SYMBOL', 'CONDITION', 'ACCOUNT', 'CREATED', 'EXPIRES', 'TRIGGERED'],
    alerts.map((a) => [
      a.id,
      a.status,
      a.symbol,
      conditionOf(a),
      a.accountId,
      isoOrNull(a.createdAt) ?? '',
      isoOrNull(a.expiresAt) ?? '-',
      isoOrNull(a.triggeredAt) ?? '-',
    ]),
  );
}

async function cancelAlert(id: string, options: { json?: boolean }): Promise<void> {
  const alert = await withStore(async (store) => {
    const cancelled = await store.priceAlerts.cancel(id, OPERATOR_SCOPE);
    if (!cancelled) throw new CliError(`no alert with id ${id} (see: alerts list)`);
    return cancelled;
  });
  if (options.json) printJson(toJson(alert));
  else printLines(`Cancelled alert ${alert.id} (${alert.status} when cancelled): ${alert.symbol} ${conditionOf(alert)}`);
}

const conditionOf = (alert: PriceAlert): string => (alert.kind === 'signal' ? `signal ${alert.signal}` : `${alert.kind} ${alert.threshold}`);

function toInput(options: CreateOptions): CreateAlertInput {
  const base = { symbol: options.symbol, expiresAt: options.expiresAt ?? null };
  if (options.above !== undefined) return { ...base, kind: 'price_above', threshold: options.above };
  if (options.below !== undefined) return { ...base, kind: 'price_below', threshold: options.below };
  if (options.changeAbove !== undefined) return { ...base, kind: 'change_above', threshold: options.changeAbove };
  return { ...base, kind: 'signal', signal: options.signal ?? null };
}

async function createAlert(options: CreateOptions): Promise<void> {
  const alert = await withStore(async (store) => {
    const key = await store.accounts.findKeyById(options.keyId);
    if (!key) throw new CliError(`no key with id ${options.keyId} (see: keys list)`);
    if (key.revokedAt !== null) throw new CliError(`key ${options.keyId} is revoked; alerts need an active key`);
    return createPriceAlert(store, key.account, toInput(options), Date.now());
  });
  if (options.json) {
    printJson(toJson(alert));
    return;
  }
  printLines(
    `Created alert ${alert.id} (${alert.status}): ${alert.symbol} ${conditionOf(alert)}`,
    `  created: ${isoOrNull(alert.createdAt)}`,
    `  expires: ${isoOrNull(alert.expiresAt) ?? 'never'}`,
  );
}

/** The variant A alert fields (D7), plus `signal` for signal alerts. */
function toJson(alert: PriceAlert) {
  return {
    id: alert.id,
    account_id: alert.accountId,
    status: alert.status,
    symbol: alert.symbol,
    kind: alert.kind,
    threshold: alert.threshold,
    signal: alert.signal,
    created_at: isoOrNull(alert.createdAt),
    expires_at: isoOrNull(alert.expiresAt),
    triggered_at: isoOrNull(alert.triggeredAt),
  };
}
