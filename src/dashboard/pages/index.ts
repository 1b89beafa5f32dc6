/** Every page of the dashboard, by its path under /account. */
import type { DashboardPage } from '../page.js';
import { alertsPage } from './alerts.js';
import { keysPage } from './keys.js';
import { resetPage, verifyPage } from './reset.js';
import { securityPage } from './security.js';
import { signInPage, signOutPage } from './sign-in.js';
import { signUpPage } from './sign-up.js';
import { usageCsvPage, usagePage } from './usage.js';
import { webhooksPage } from './webhooks.js';

export const DASHBOARD_PAGES: readonly DashboardPage[] = [
  signInPage,
  signOutPage,
  signUpPage,
  resetPage,
  verifyPage,
  securityPage,
  keysPage,
  usagePage,
  usageCsvPage,
  alertsPage,
  webhooksPage,
];
