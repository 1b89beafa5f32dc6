/** Password changes and resets (by mail, or the CLI's `accounts reset-link`), and email verification. */
import { invalid } from '../domain/errors.js';
import { normalizeEmail } from '../store/users.js';
import { type DashboardAccountsOptions, type DashboardSteps, linkFor, RESET_TTL_MS } from './dashboard-steps.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { tokenHash } from './secrets.js';
import type { ClientInfo, LiveSession } from './sessions.js';

export function createDashboardPasswords(options: DashboardAccountsOptions, steps: DashboardSteps) {
  const { store, sessions, mailer, now } = options;
  const { record, checkNewPassword, mail, issueToken, sendVerification, guard, userOf } = steps;

  return {
    /** Ends every session of the person (other browsers too) and starts a new one here. */
    async changePassword(session: LiveSession, input: { current: string; next: string }, client: ClientInfo): Promise<{ token: string }> {
      const user = await userOf(session);
      await guard(user.email, client, () => verifyPassword(user.passwordHash, input.current), 'the current password is wrong');
      checkNewPassword(input.next);
      await store.users.setPassword(user.id, await hashPassword(input.next), now());
      const ended = await sessions.endAllOf(user.id);
      const started = await sessions.start(user.id, 'signed_in', client);
      await record(user.accountId, 'password_changed', `password changed; ${ended} session(s) ended`, client);
      return { token: started.token };
    },

    /** With mail: a reset link to the address if it has an account. The same answer either way. */
    async requestReset(email: string, base: string): Promise<void> {
      const user = await store.users.findByEmail(email);
      if (!mailer || !user) return;
      const token = await issueToken('reset', user.email, user.accountId, RESET_TTL_MS);
      await mail(
        user.email,
        'Reset your market-gateway password',
        `Choose a new password at:\n\n${linkFor(base, 'reset', token)}\n\nThe link works for an hour, once. If you did not ask, ignore this mail.`,
      );
    },

    /** Whether a reset link may still be used (the form is shown only then). */
    async resetIsValid(token: string): Promise<boolean> {
      return (await store.oneTimeTokens.peek(tokenHash(token), 'reset', now())) !== undefined;
    },

    /** A new password from a reset link; every session of the account ends. */
    async resetPassword(token: string, password: string, client: ClientInfo): Promise<void> {
      const reset = await store.oneTimeTokens.peek(tokenHash(token), 'reset', now());
      const user = reset && (await store.users.findByEmail(reset.email));
      if (!user) throw invalid('this reset link is used, expired or unknown: ask for a new one');
      checkNewPassword(password);
      const passwordHash = await hashPassword(password);
      if (!(await store.oneTimeTokens.use(tokenHash(token), now()))) throw invalid('this reset link is used, expired or unknown: ask for a new one');
      await store.users.setPassword(user.id, passwordHash, now());
      const ended = await sessions.endAllOf(user.id);
      await record(user.accountId, 'password_reset', `password reset by link; ${ended} session(s) ended`, client);
    },

    async verifyEmail(token: string, client: ClientInfo): Promise<boolean> {
      const pending = await store.oneTimeTokens.peek(tokenHash(token), 'verify', now());
      const user = pending && (await store.users.findByEmail(pending.email));
      if (!user || !(await store.oneTimeTokens.use(tokenHash(token), now()))) return false;
      await store.users.markVerified(user.id, now());
      await record(user.accountId, 'email_verified', `${user.email} confirmed`, client);
      return true;
    },

    async resendVerification(session: LiveSession, base: string): Promise<void> {
      await sendVerification(await userOf(session), base);
    },

    /** `accounts reset-link <email>`: a one-time password reset link (1 hour), for operators without SMTP. */
    async resetLink(emailInput: string, base: string): Promise<string> {
      const user = await store.users.findByEmail(emailInput);
      if (!user) throw invalid(`no dashboard sign-in with email ${normalizeEmail(emailInput)}`);
      return linkFor(base, 'reset', await issueToken('reset', user.email, user.accountId, RESET_TTL_MS));
    },
  };
}
