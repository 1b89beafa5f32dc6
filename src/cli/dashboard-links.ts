/**
 * `accounts invite` and `accounts reset-link`: one-time links an operator hands to a person, made by
 * the dashboard's own rules (src/dashboard-accounts). Links point at PORTAL_PUBLIC_URL, else at variant A's
 * listener as configured.
 */
import type { Command } from 'commander';
import pino from 'pino';
import type { DashboardAccounts } from '../dashboard-accounts/index.js';
import type { Config } from '../config/config.js';
import { loadCliConfig, withStore } from './context.js';
import { printJson, printLines } from './output.js';
import { parseNonEmpty } from './parse.js';

const baseOf = (config: Config) => config.dashboard.publicUrl ?? `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.marketDataPort}`;

/** The dashboard's rules over the CLI's store: no mail, a throttle of its own (links are not guesses). */
async function withDashboardAccounts<T>(work: (accounts: DashboardAccounts, config: Config) => Promise<T>): Promise<T> {
  const config = await loadCliConfig();
  const { createDashboardAccounts, createSessionService, createSignInThrottle } = await import('../dashboard-accounts/index.js');
  return withStore((store) => {
    const sessions = createSessionService({
      sessions: store.sessions,
      idleMs: config.dashboard.idleMs,
      absoluteMs: config.dashboard.absoluteMs,
      now: Date.now,
    });
    const accounts = createDashboardAccounts({
      store,
      sessions,
      throttle: createSignInThrottle(),
      mailer: undefined,
      signup: config.dashboard.signup,
      logger: pino({ level: 'silent' }),
      now: Date.now,
    });
    return work(accounts, config);
  });
}

export function registerDashboardLinks(accounts: Command): void {
  accounts
    .command('invite')
    .description('a one-time sign-up link for <email> (7 days); with --account, the sign-in of an account made by keys create')
    .argument('<email>', 'who will sign in')
    .option('--account <id>', 'give this existing account (acct_...) its dashboard sign-in', parseNonEmpty)
    .option('--json', 'print one JSON object')
    .action(async (email: string, options: { account?: string; json?: boolean }) => {
      const link = await withDashboardAccounts((a, config) => a.invite(email, options.account, baseOf(config)));
      if (options.json) return printJson({ email, account_id: options.account ?? null, link });
      printLines(`Invitation for ${email}${options.account ? ` to account ${options.account}` : ''} (works once, for 7 days):`, '', `  ${link}`);
    });

  accounts
    .command('reset-link')
    .description('a one-time password reset link for the dashboard user <email> (1 hour); for gateways without SMTP_URL')
    .argument('<email>', "the dashboard user's email")
    .option('--json', 'print one JSON object')
    .action(async (email: string, options: { json?: boolean }) => {
      const link = await withDashboardAccounts((a, config) => a.resetLink(email, baseOf(config)));
      if (options.json) return printJson({ email, link });
      printLines(`Password reset link for ${email} (works once, for an hour; every session of the account ends when it is used):`, '', `  ${link}`);
    });
}
