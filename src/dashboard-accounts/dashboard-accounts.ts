/**
 * The account dashboard's sign-in rules, one module for every front (the pages, the CLI's
 * `accounts invite` and `reset-link`): sign-up by PORTAL_SIGNUP, sign-in with throttling and the
 * second factor, password changes and resets, email verification, two-factor setup. Answers that
 * could tell whether an email is registered are the same either way (docs/dashboard.md says how).
 */
import { createDashboardPasswords } from './dashboard-passwords.js';
import { createDashboardSignIn } from './dashboard-sign-in.js';
import { createDashboardSignUp } from './dashboard-sign-up.js';
import { createDashboardSteps, type DashboardAccountsOptions } from './dashboard-steps.js';
import { createDashboardTwoFactor } from './dashboard-two-factor.js';

export {
  type DashboardAccountsOptions,
  linkFor,
  SIGN_IN_FAILED,
  type SignInOutcome,
  type SignupMode,
} from './dashboard-steps.js';

/** The rules by concern (sign-up, sign-in and sessions, passwords and verification, two-factor), over the same steps. */
export function createDashboardAccounts(options: DashboardAccountsOptions) {
  const steps = createDashboardSteps(options);

  return {
    signupMode: options.signup,
    mailEnabled: options.mailer !== undefined,
    ...createDashboardSignUp(options, steps),
    ...createDashboardSignIn(options, steps),
    ...createDashboardPasswords(options, steps),
    ...createDashboardTwoFactor(options, steps),
    user: steps.userOf,
  };
}

export type DashboardAccounts = ReturnType<typeof createDashboardAccounts>;
