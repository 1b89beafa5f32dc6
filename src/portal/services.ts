/** What the dashboard's pages use: the sign-in rules and sessions, the store, and the rules of keys, alerts and webhooks. */
import type { DashboardAccounts, SessionService } from '../accounts/index.js';
import type { Store } from '../store/index.js';

export interface PortalServices {
  accounts: DashboardAccounts;
  sessions: SessionService;
  store: Store;
  /** PORTAL_PUBLIC_URL: links in mail and from the CLI; https makes the cookies Secure. */
  publicUrl: string | undefined;
  /** Where a customer gets variant B's Pro plan (PORTAL_UPGRADE_URL). */
  upgradeUrl: string | undefined;
  now(): number;
}
