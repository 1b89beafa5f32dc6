/**
 * Operators' changes to an account, one set of rules for every front: its plans, and
 * disabling it (its keys refused by running servers within 2 s, its dashboard sessions ended) or
 * enabling it again. Each change is written to the account's activity log.
 */
import type { MarketDataPlan, PredictionPlan } from '../domain/account.js';
import { invalid, notFound } from '../domain/errors.js';
import type { AccountSummary } from '../store/accounts.js';
import type { SessionRepository } from '../store/sessions.js';
import type { UserRepository } from '../store/users.js';
import type { Actor, KeyManagement } from './key-management.js';

/** What the rules need of the store; a `Store` is one. */
export interface AccountManagement extends KeyManagement {
  users: UserRepository;
  sessions: SessionRepository;
}

/** An account named by its id (`acct_...`) or by the email of its dashboard user. */
export async function findAccountByIdOrEmail(deps: AccountManagement, idOrEmail: string, now: number): Promise<AccountSummary> {
  const accountId = idOrEmail.includes('@') ? (await deps.users.findByEmail(idOrEmail))?.accountId : idOrEmail;
  const account = accountId === undefined ? undefined : await deps.accounts.findAccountSummary(accountId, now);
  if (!account) throw notFound(idOrEmail.includes('@') ? `no account has a user with email ${idOrEmail}` : `no account with id ${idOrEmail}`);
  return account;
}

/** Changes either plan or both; `changed` is false when the account had them already (nothing is written). */
export async function changePlans(
  deps: AccountManagement,
  account: AccountSummary,
  plans: { marketDataPlan?: MarketDataPlan | undefined; predictionPlan?: PredictionPlan | undefined },
  now: number,
  actor: Actor,
): Promise<{ account: AccountSummary; changed: boolean }> {
  if (!plans.marketDataPlan && !plans.predictionPlan) throw invalid('name a market-data plan, a prediction plan, or both');
  const changes = [
    plans.marketDataPlan && plans.marketDataPlan !== account.marketDataPlan ? `market-data plan ${account.marketDataPlan} to ${plans.marketDataPlan}` : '',
    plans.predictionPlan && plans.predictionPlan !== account.predictionPlan ? `prediction plan ${account.predictionPlan} to ${plans.predictionPlan}` : '',
  ].filter(Boolean);
  if (changes.length === 0) return { account, changed: false };
  const updated = await deps.accounts.setPlans(account.id, plans, now);
  if (!updated) throw notFound(`no account with id ${account.id}`);
  await deps.activity.record({ accountId: account.id, at: now, kind: 'plan_changed', detail: changes.join(', '), clientAddress: actor.clientAddress });
  return { account: { ...account, ...updated, changedAt: now }, changed: true };
}

/** Disables an account: running servers refuse its keys within 2 s; its user's dashboard sessions end now. */
export async function disableAccount(
  deps: AccountManagement,
  account: AccountSummary,
  now: number,
  actor: Actor,
): Promise<{ account: AccountSummary; already: boolean; sessionsEnded: number }> {
  if (account.disabledAt !== null) return { account, already: true, sessionsEnded: 0 };
  if (!(await deps.accounts.setDisabled(account.id, true, now))) throw notFound(`no account with id ${account.id}`);
  const user = await deps.users.findByAccount(account.id);
  const sessionsEnded = user ? await deps.sessions.endAllOf(user.id, now) : 0;
  const ended = user ? `; ${sessionsEnded} dashboard session${sessionsEnded === 1 ? '' : 's'} ended` : '';
  await deps.activity.record({
    accountId: account.id,
    at: now,
    kind: 'account_disabled',
    detail: `account disabled${ended}`,
    clientAddress: actor.clientAddress,
  });
  return { account: { ...account, disabledAt: now, changedAt: now }, already: false, sessionsEnded };
}

/** Enables an account again: running servers admit its keys within 2 s. */
export async function enableAccount(
  deps: AccountManagement,
  account: AccountSummary,
  now: number,
  actor: Actor,
): Promise<{ account: AccountSummary; already: boolean }> {
  if (account.disabledAt === null) return { account, already: true };
  if (!(await deps.accounts.setDisabled(account.id, false, now))) throw notFound(`no account with id ${account.id}`);
  await deps.activity.record({ accountId: account.id, at: now, kind: 'account_enabled', detail: 'account enabled', clientAddress: actor.clientAddress });
  return { account: { ...account, disabledAt: null, changedAt: now }, already: false };
}
