/** What the dashboard's pages use: the sign-in rules and sessions, the store, and the rules of keys, alerts and webhooks. */
import type { DashboardAccounts, SessionService } from '../dashboard-accounts/index.js';
import type { QuotaService } from '../quota/index.js';
import type { AccountAlerts } from '../readmodel/account-alerts.js';
import type { Store } from '../store/index.js';
import type { WebhookManagement } from '../webhooks/endpoints.js';

export interface DashboardServices {
  accounts: DashboardAccounts;
  sessions: SessionService;
  store: Store;
  /** PORTAL_PUBLIC_URL: links in mail and from the CLI; https makes the cookies Secure. */
  publicUrl: string | undefined;
  /** Where a customer gets variant B's Pro plan (PORTAL_UPGRADE_URL). */
  upgradeUrl: string | undefined;
  /** The quota the API spends: the Usage page shows this minute's and today's counts against it. */
  quota: QuotaService;
  /** The rules of webhook endpoints (the same as the CLI's and GraphQL's). */
  webhooks: WebhookManagement;
  /** Each account's price alerts as `GET /api/v1/alerts` lists them; told of the dashboard's changes, so the API's kept answers follow at once. */
  accountAlerts: AccountAlerts;
  /** Drops revoked keys from this instance's key cache at once (the others see them within their 2 s poll). */
  keysRevoked(keyIds: readonly string[]): void;
  now(): number;
}
