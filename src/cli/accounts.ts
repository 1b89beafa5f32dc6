/**
 * `accounts list|show|set-plan|disable|enable|activity` (`invite` and `reset-link` in dashboard-links.ts): an operator's view of accounts and
 * their changes, through the rules every front shares (src/auth/account-management.ts). An account is
 * named by its id (`acct_...`) or by its dashboard user's email.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';
import { changePlans, disableAccount, enableAccount, findAccountByIdOrEmail } from '../auth/account-management.js';
import { CLI_ACTOR, keyState, listKeys } from '../auth/key-management.js';
import { MARKET_DATA_PLANS, PREDICTION_PLANS, type MarketDataPlan, type PredictionPlan } from '../domain/account.js';
import type { AccountKey, AccountSummary } from '../store/accounts.js';
import type { ActivityEntry } from '../store/activity.js';
import type { Store } from '../store/index.js';
import { withStore } from './context.js';
import { registerDashboardLinks } from './dashboard-links.js';
import { isoOrNull, printJson, printLines, printTable } from './output.js';

const ACCOUNT_ARGUMENT = ['<account>', 'account id (acct_...) or the email of its dashboard user'] as const;
/** When running servers see a change to an account. */
const APPLIED = 'running servers apply it within 2 s';

/** Runs `work` on the account named on the command line, at one instant. */
function withAccount<T>(idOrEmail: string, work: (store: Store, account: AccountSummary, now: number) => Promise<T>): Promise<T> {
  return withStore(async (store) => {
    const now = Date.now();
    return work(store, await findAccountByIdOrEmail(store, idOrEmail, now), now);
  });
}

const statusOf = (a: AccountSummary) => (a.disabledAt === null ? 'active' : 'disabled');

/** Listed fields are spelled out so a new column can never leak by accident. */
function accountJson(a: AccountSummary) {
  return {
    id: a.id,
    name: a.name,
    email: a.email,
    plan: a.marketDataPlan,
    prediction_plan: a.predictionPlan,
    status: statusOf(a),
    disabled_at: isoOrNull(a.disabledAt),
    /** When its plans or status last changed: running servers apply it within 2 s of then. */
    changed_at: a.changedAt === 0 ? null : isoOrNull(a.changedAt),
    created_at: isoOrNull(a.createdAt),
    live_keys: a.liveKeys,
  };
}

function keyJson(k: AccountKey, now: number) {
  return {
    id: k.id,
    prefix: k.displayPrefix,
    name: k.name,
    state: keyState(k, now),
    any_operation: k.anyOperation,
    created_at: isoOrNull(k.createdAt),
    revoked_at: isoOrNull(k.revokedAt),
    expires_at: isoOrNull(k.expiresAt),
    last_used_at: isoOrNull(k.lastUsedAt),
  };
}

const activityJson = (e: ActivityEntry) => ({ at: isoOrNull(e.at), kind: e.kind, detail: e.detail, client_address: e.clientAddress });

function parseLimit(value: string): number {
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= 1 && n <= 1_000)) throw new InvalidArgumentError('Expected a whole number from 1 to 1000.');
  return n;
}

export function registerAccounts(program: Command): void {
  const accounts = program
    .command('accounts')
    .description('see accounts, change their plans, disable or enable them, read their activity, invite people to the dashboard');
  registerDashboardLinks(accounts);
  registerAccountViews(accounts);
  registerAccountChanges(accounts);
  registerActivityCommand(accounts);
}

/** list, show. */
function registerAccountViews(accounts: Command): void {
  accounts
    .command('list')
    .description("every account, oldest first, with its dashboard user's email and its live keys")
    .option('--json', 'print a JSON array')
    .action(async (options: { json?: boolean }) => {
      const listed = await withStore((store) => store.accounts.listAccounts(Date.now()));
      if (options.json) return printJson(listed.map(accountJson));
      if (listed.length === 0) return printLines('No accounts yet (create one with: keys create).');
      printTable(
        ['ID', 'NAME', 'EMAIL', 'PLAN', 'PREDICTION', 'LIVE KEYS', 'STATUS', 'CREATED'],
        listed.map((a) => [a.id, a.name, a.email ?? '-', a.marketDataPlan, a.predictionPlan, String(a.liveKeys), statusOf(a), isoOrNull(a.createdAt) ?? '']),
      );
    });

  accounts
    .command('show')
    .description('one account: its plans, status, dashboard user and keys (with their last use; never a key itself)')
    .argument(...ACCOUNT_ARGUMENT)
    .option('--json', 'print one JSON object')
    .action(async (idOrEmail: string, options: { json?: boolean }) => {
      const { account, keys, now } = await withAccount(idOrEmail, async (store, account, now) => ({ account, keys: await listKeys(store, account), now }));
      if (options.json) return printJson({ ...accountJson(account), keys: keys.map((k) => keyJson(k, now)) });
      printLines(
        `Account ${account.id} (${account.name}): ${statusOf(account)}${account.disabledAt === null ? '' : ` since ${isoOrNull(account.disabledAt)}`}`,
        `  plan: ${account.marketDataPlan}, prediction plan: ${account.predictionPlan}`,
        `  dashboard user: ${account.email ?? 'none'}`,
        `  created: ${isoOrNull(account.createdAt)}, live keys: ${account.liveKeys}`,
        '',
      );
      if (keys.length === 0) return printLines('No keys.');
      printTable(
        ['KEY', 'PREFIX', 'NAME', 'STATE', 'CREATED', 'EXPIRES', 'LAST USED'],
        keys.map((k) => [
          k.id,
          `${k.displayPrefix}…`,
          k.name,
          keyState(k, now),
          isoOrNull(k.createdAt) ?? '',
          isoOrNull(k.expiresAt) ?? '-',
          isoOrNull(k.lastUsedAt) ?? '-',
        ]),
      );
    });
}

/** set-plan, disable, enable: applied by running servers within their poll. */
function registerAccountChanges(accounts: Command): void {
  accounts
    .command('set-plan')
    .description(`change an account's market-data plan, prediction plan, or both; ${APPLIED}`)
    .argument(...ACCOUNT_ARGUMENT)
    .addOption(new Option('--market-data <plan>', 'the market-data plan').choices(MARKET_DATA_PLANS))
    .addOption(new Option('--prediction <plan>', 'the prediction plan').choices(PREDICTION_PLANS))
    .option('--json', 'print the account as one JSON object')
    .action(async (idOrEmail: string, options: { marketData?: MarketDataPlan; prediction?: PredictionPlan; json?: boolean }, command: Command) => {
      if (!options.marketData && !options.prediction) command.error('error: give --market-data, --prediction, or both');
      const { account, changed } = await withAccount(idOrEmail, (store, account, now) =>
        changePlans(store, account, { marketDataPlan: options.marketData, predictionPlan: options.prediction }, now, CLI_ACTOR),
      );
      if (options.json) return printJson(accountJson(account));
      const plans = `plan ${account.marketDataPlan}, prediction plan ${account.predictionPlan}`;
      printLines(changed ? `Account ${account.id} now has ${plans}; ${APPLIED}.` : `Account ${account.id} already has ${plans}; nothing changed.`);
    });

  accounts
    .command('disable')
    .description('disable an account: running servers refuse its keys within 2 s, and its dashboard sessions end')
    .argument(...ACCOUNT_ARGUMENT)
    .option('--json', 'print the account as one JSON object')
    .action(async (idOrEmail: string, options: { json?: boolean }) => {
      const { account, already, sessionsEnded } = await withAccount(idOrEmail, (store, account, now) => disableAccount(store, account, now, CLI_ACTOR));
      if (options.json) return printJson(accountJson(account));
      if (already) return printLines(`Account ${account.id} was already disabled (since ${isoOrNull(account.disabledAt)}).`);
      const sessions = account.email ? ` ${sessionsEnded} dashboard session${sessionsEnded === 1 ? '' : 's'} ended.` : '';
      printLines(`Disabled account ${account.id}; running servers refuse its keys within 2 s.${sessions}`);
    });

  accounts
    .command('enable')
    .description('enable a disabled account: running servers admit its keys again within 2 s')
    .argument(...ACCOUNT_ARGUMENT)
    .option('--json', 'print the account as one JSON object')
    .action(async (idOrEmail: string, options: { json?: boolean }) => {
      const { account, already } = await withAccount(idOrEmail, (store, account, now) => enableAccount(store, account, now, CLI_ACTOR));
      if (options.json) return printJson(accountJson(account));
      printLines(
        already ? `Account ${account.id} is not disabled; nothing changed.` : `Enabled account ${account.id}; running servers admit its keys within 2 s.`,
      );
    });
}

function registerActivityCommand(accounts: Command): void {
  accounts
    .command('activity')
    .description("an account's activity log, newest first: sign-ins, keys, plans, status (with the client's address where a person did it)")
    .argument(...ACCOUNT_ARGUMENT)
    .option('--limit <n>', 'how many entries, 1 to 1000', parseLimit, 100)
    .option('--json', 'print a JSON array')
    .action(async (idOrEmail: string, options: { limit: number; json?: boolean }) => {
      const entries = await withAccount(idOrEmail, (store, account) => store.activity.list(account.id, options.limit));
      if (options.json) return printJson(entries.map(activityJson));
      if (entries.length === 0) return printLines('No activity recorded.');
      printTable(
        ['TIME', 'KIND', 'DETAIL', 'CLIENT'],
        entries.map((e) => [isoOrNull(e.at) ?? '', e.kind, e.detail, e.clientAddress ?? '-']),
      );
    });
}
