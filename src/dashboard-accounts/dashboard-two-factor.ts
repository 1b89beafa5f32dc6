/** Two-factor setup: a new secret, turned on by a code from the app (with recovery codes), turned off by the password. */
import { invalid } from '../domain/errors.js';
import { CODE_FAILED, type DashboardAccountsOptions, type DashboardSteps, ISSUER } from './dashboard-steps.js';
import { verifyPassword } from './passwords.js';
import type { ClientInfo, LiveSession } from './sessions.js';
import { newRecoveryCodes, newTotpSecret, recoveryCodeHash, totpCodeIsValid, totpEnrolment } from './two-factor.js';

export function createDashboardTwoFactor(options: DashboardAccountsOptions, steps: DashboardSteps) {
  const { store, now } = options;
  const { record, guard, userOf } = steps;

  return {
    /** Two-factor setup, step 1: a new secret (not active yet), as text and as a QR code. */
    async beginTwoFactor(session: LiveSession): Promise<{ secret: string; uri: string; qrSvg: string }> {
      const user = await userOf(session);
      if (user.totpEnabledAt !== null) throw invalid('two-factor sign-in is on already');
      const secret = await newTotpSecret();
      await store.users.setPendingTotp(user.id, secret);
      return { secret, ...(await totpEnrolment(ISSUER, user.email, secret)) };
    },

    /** Step 2: a code from the app turns it on; the recovery codes are returned once. */
    async confirmTwoFactor(session: LiveSession, code: string, client: ClientInfo): Promise<string[]> {
      const user = await userOf(session);
      if (!user.totpSecret || user.totpEnabledAt !== null) throw invalid('start the two-factor setup first');
      await guard(user.email, client, () => totpCodeIsValid(user.totpSecret!, code), CODE_FAILED);
      const codes = newRecoveryCodes();
      await store.users.enableTotp(user.id, codes.map(recoveryCodeHash), now());
      await record(user.accountId, 'two_factor_enabled', 'two-factor sign-in turned on', client);
      return codes;
    },

    async disableTwoFactor(session: LiveSession, password: string, client: ClientInfo): Promise<void> {
      const user = await userOf(session);
      await guard(user.email, client, () => verifyPassword(user.passwordHash, password), 'the current password is wrong');
      await store.users.disableTotp(user.id);
      await record(user.accountId, 'two_factor_disabled', 'two-factor sign-in turned off', client);
    },
  };
}
