/** Sign-up (by PORTAL_SIGNUP, or an operator's invitation) and the CLI's `accounts invite`. */
import { forbidden, invalid } from '../domain/errors.js';
import { type DashboardAccountsOptions, type DashboardSteps, INVITE_TTL_MS, linkFor } from './dashboard-steps.js';
import { hashPassword } from './passwords.js';
import { tokenHash } from './secrets.js';
import type { ClientInfo } from './sessions.js';

export function createDashboardSignUp(options: DashboardAccountsOptions, steps: DashboardSteps) {
  const { store, now } = options;
  const { record, checkEmail, checkNewPassword, mail, issueToken, sendVerification } = steps;

  return {
    /** The email of a pending invitation, for the sign-up form; undefined when it is not valid. */
    async invitation(token: string): Promise<string | undefined> {
      return (await store.oneTimeTokens.peek(tokenHash(token), 'invite', now()))?.email;
    },

    /**
     * Creates an account and its sign-in. The answer is the same whether or not the email was free
     * (nothing is created when it was not, after the same argon2 work); with mail, the owner of a
     * taken address is told someone tried.
     */
    async signUp(input: { email: string; password: string; invite?: string | undefined }, client: ClientInfo, base: string): Promise<void> {
      if (options.signup === 'closed') throw forbidden('sign-up is closed: ask the operator for an account');
      let email = checkEmail(input.email);
      let accountId: string | null = null;
      if (options.signup === 'invite' || input.invite) {
        const invitation = input.invite ? await store.oneTimeTokens.peek(tokenHash(input.invite), 'invite', now()) : undefined;
        if (!invitation) throw forbidden('sign-up needs an invitation link from the operator (accounts invite); this one is missing, used or expired');
        email = invitation.email;
        accountId = invitation.accountId;
      }
      checkNewPassword(input.password);
      const passwordHash = await hashPassword(input.password);
      const user = accountId
        ? await store.users.create({ accountId, email, passwordHash, now: now() })
        : await store.users.createWithNewAccount({ email, passwordHash, now: now() });
      if (!user) {
        await mail(
          email,
          'Someone tried to sign up with your address',
          `An account for this address already exists. Sign in at ${base}/account/sign-in, or reset your password there.`,
        );
        return;
      }
      if (input.invite) await store.oneTimeTokens.use(tokenHash(input.invite), now());
      await record(user.accountId, 'signed_up', `dashboard sign-in created for ${user.email}`, client);
      await sendVerification(user, base);
    },

    /** `accounts invite <email> [--account <id>]`: a one-time sign-up link (7 days). */
    async invite(emailInput: string, accountId: string | undefined, base: string): Promise<string> {
      const email = checkEmail(emailInput);
      if (await store.users.findByEmail(email)) throw invalid(`${email} already signs in to an account`);
      if (accountId) {
        if (!(await store.accounts.findAccount(accountId))) throw invalid(`no account with id ${accountId}`);
        if (await store.users.findByAccount(accountId)) throw invalid(`account ${accountId} already has a dashboard sign-in`);
        await record(accountId, 'invited', `invitation sent to ${email}`);
      }
      return linkFor(base, 'sign-up', await issueToken('invite', email, accountId ?? null, INVITE_TTL_MS)).replace('?token=', '?invite=');
    },
  };
}
