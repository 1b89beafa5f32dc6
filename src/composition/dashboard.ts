/**
 * The account dashboard's parts: sign-in throttling (in Redis when instances share one), sessions,
 * mail when SMTP_URL is set, the sign-in rules, and one handler per listener over them.
 */
import type { Logger } from 'pino';
import { createDashboardAccounts, createMailer, createSessionService, createSignInThrottle } from '../dashboard-accounts/index.js';
import type { Config } from '../config/config.js';
import type { Variant } from '../domain/variant.js';
import type { Classify } from '../edge/classify.js';
import { DASHBOARD_PAGES } from '../dashboard/pages/index.js';
import { createDashboardHandler } from '../dashboard/dashboard-handler.js';
import type { DashboardServices } from '../dashboard/services.js';
import type { QuotaService } from '../quota/index.js';
import type { AccountAlerts } from '../readmodel/account-alerts.js';
import type { WebhookManagement } from '../webhooks/endpoints.js';
import type { Stores } from './stores.js';

interface DashboardDeps {
  config: Config;
  quota: QuotaService;
  /** This instance's key cache: a key revoked here is refused before the page answers. */
  keysRevoked: (keyIds: readonly string[]) => void;
  webhooks: WebhookManagement;
  accountAlerts: AccountAlerts;
  stores: Stores;
  classify: Classify;
  logger: Logger;
  now: () => number;
}

export function buildDashboard({ config, stores, quota, keysRevoked, webhooks, accountAlerts, classify, logger, now }: DashboardDeps) {
  const { store } = stores;
  const sessions = createSessionService({ sessions: store.sessions, idleMs: config.dashboard.idleMs, absoluteMs: config.dashboard.absoluteMs, now });
  const mailer = config.dashboard.smtpUrl ? createMailer(config.dashboard.smtpUrl, config.dashboard.smtpFrom) : undefined;
  const accounts = createDashboardAccounts({
    store,
    sessions,
    throttle: createSignInThrottle(stores.redis),
    mailer,
    signup: config.dashboard.signup,
    logger,
    now,
  });
  const services: DashboardServices = {
    accounts,
    sessions,
    store,
    publicUrl: config.dashboard.publicUrl,
    upgradeUrl: config.dashboard.upgradeUrl,
    quota,
    webhooks,
    accountAlerts,
    keysRevoked,
    now,
  };
  return {
    accounts,
    handlerFor: (variant: Variant) => createDashboardHandler({ variant, pages: DASHBOARD_PAGES, services, classify }),
    close: () => mailer?.close(),
  };
}
