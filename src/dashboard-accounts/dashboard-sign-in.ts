/** Sign-in with throttling and the second factor, sign-out, and the person's own sessions. */
import { forbidden, invalid } from '../domain/errors.js';
import type { User } from '../store/users.js';
import { normalizeEmail } from '../store/users.js';
import { CODE_FAILED, type DashboardAccountsOptions, type DashboardSteps, SIGN_IN_FAILED, type SignInOutcome } from './dashboard-steps.js';
import { verifyPassword } from './passwords.js';
import type { ClientInfo, LiveSession } from './sessions.js';
import { recoveryCodeHash, totpCodeIsValid } from './two-factor.js';

export function createDashboardSignIn(options: DashboardAccountsOptions, steps: DashboardSteps) {
  const { store, sessions, throttle, now } = options;
  const { record, guard, userOf } = steps;

  return {
    /** Email and password; then, with two-factor on, a session waiting for the code. */
    async signIn(input: { email: string; password: string }, client: ClientInfo): Promise<SignInOutcome> {
      const email = normalizeEmail(input.email);
      let user: User | undefined;
      await guard(
        email,
        client,
        async () => {
          user = await store.users.findByEmail(email);
          const ok = await verifyPassword(user?.passwordHash, input.password);
          if (!ok && user) await record(user.accountId, 'sign_in_failed', 'wrong password', client);
          return ok;
        },
        SIGN_IN_FAILED,
      );
      const signedIn = user!;
      await throttle.succeeded(email);
      // Only someone with the right password learns this.
      if ((await store.accounts.findAccountSummary(signedIn.accountId, now()))?.disabledAt != null) {
        throw forbidden('this account is disabled: ask the operator');
      }
      if (signedIn.totpEnabledAt !== null) {
        const started = await sessions.start(signedIn.id, 'second_factor', client);
        return { stage: 'second_factor', token: started.token };
      }
      const started = await sessions.start(signedIn.id, 'signed_in', client);
      await record(signedIn.accountId, 'sign_in', 'signed in', client);
      return { stage: 'signed_in', token: started.token };
    },

    /** The second step: a TOTP code or a recovery code; a new session id once it is right. */
    async secondFactor(session: LiveSession, code: string, client: ClientInfo): Promise<SignInOutcome> {
      const user = await userOf(session);
      let usedRecoveryCode = false;
      await guard(
        user.email,
        client,
        async () => {
          if (user.totpSecret && (await totpCodeIsValid(user.totpSecret, code))) return true;
          usedRecoveryCode = await store.users.spendRecoveryCode(user.id, recoveryCodeHash(code), now());
          if (!usedRecoveryCode) await record(user.accountId, 'sign_in_failed', 'wrong authentication code', client);
          return usedRecoveryCode;
        },
        CODE_FAILED,
      );
      await sessions.end(session.idHash);
      const started = await sessions.start(user.id, 'signed_in', client);
      if (usedRecoveryCode) await record(user.accountId, 'recovery_code_used', `${await store.users.unusedRecoveryCodes(user.id)} recovery codes left`, client);
      await record(user.accountId, 'sign_in', 'signed in with two-factor', client);
      return { stage: 'signed_in', token: started.token };
    },

    async signOut(session: LiveSession, client: ClientInfo): Promise<void> {
      await sessions.end(session.idHash);
      await record(session.accountId, 'signed_out', 'signed out', client);
    },

    /** Ends one of the person's own sessions (not another person's: the id is checked against theirs). */
    async endSession(session: LiveSession, idHash: string, client: ClientInfo): Promise<void> {
      const own = await sessions.listLive(session.userId);
      if (!own.some((s) => s.idHash === idHash)) throw invalid('no such session');
      await sessions.end(idHash);
      await record(session.accountId, 'session_ended', `a session from ${own.find((s) => s.idHash === idHash)!.clientAddress} ended`, client);
    },

    async endOtherSessions(session: LiveSession, client: ClientInfo): Promise<void> {
      const ended = await sessions.endAllOf(session.userId, session.idHash);
      await record(session.accountId, 'session_ended', `${ended} other session(s) ended`, client);
    },
  };
}
