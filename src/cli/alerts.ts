/** `alerts create`: price alerts (D11) through the same rules as the GraphQL mutation (createPriceAlert). */
import { type Command, Option } from 'commander';
import { createPriceAlert, type CreateAlertInput } from '../alerts/create-alert.js';
import type { PriceAlert } from '../domain/account.js';
import { CliError } from './errors.js';
import { isoOrNull, printJson, printLines } from './output.js';
import { parseIsoTimestamp, parseNonEmpty, parseNumber } from './parse.js';
import { withStore } from './context.js';

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
    .addOption(
      conditionOption('--change-above <percent>', 'when |24 h change| reaches this percentage', 'changeAbove', parseNumber),
    )
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
}

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
  const condition = alert.kind === 'signal' ? `signal ${alert.signal}` : `${alert.kind} ${alert.threshold}`;
  printLines(
    `Created alert ${alert.id} (${alert.status}): ${alert.symbol} ${condition}`,
    `  created: ${isoOrNull(alert.createdAt)}`,
    `  expires: ${isoOrNull(alert.expiresAt) ?? 'never'}`,
  );
}

/** The variant A alert fields (D7), plus `signal` for signal alerts. */
function toJson(alert: PriceAlert) {
  return {
    id: alert.id,
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
