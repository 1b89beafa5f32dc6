/**
 * The account dashboard's parts: sign-in throttling (in Redis when instances share one), sessions,
 * mail when SMTP_URL is set, the sign-in rules, and one handler per listener over them.
 */
import type { Logger } from 'pino';
import { createDashboardAccounts, createMailer, createSessionService, createSignInThrottle } from '../accounts/index.js';
import type { Config } from '../config/config.js';
import type { Variant } from '../domain/variant.js';
import type { Classify } from '../edge/classify.js';
import { PORTAL_PAGES } from '../portal/pages/index.js';
import { createPortalHandler } from '../portal/portal-handler.js';
import type { PortalServices } from '../portal/services.js';
import type { QuotaService } from '../quota/index.js';
import type { AccountAlerts } from '../readmodel/account-alerts.js';
import type { WebhookManagement } from '../webhooks/endpoints.js';
import type { Stores } from './stores.js';

interface PortalDeps {
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

export function buildPortal({ config, stores, quota, keysRevoked, webhooks, accountAlerts, classify, logger, now }: PortalDeps) {
  const { store } = stores;
  const sessions = createSessionService({ sessions: store.sessions, idleMs: config.portal.idleMs, absoluteMs: config.portal.absoluteMs, now });
  const mailer = config.portal.smtpUrl ? createMailer(config.portal.smtpUrl, config.portal.smtpFrom) : undefined;
  const accounts = createDashboardAccounts({
    store,
    sessions,
    throttle: createSignInThrottle(stores.redis),
    mailer,
    signup: config.portal.signup,
    logger,
    now,
  });
  const services: PortalServices = {
    accounts,
    sessions,
    store,
    publicUrl: config.portal.publicUrl,
    upgradeUrl: config.portal.upgradeUrl,
    quota,
    webhooks,
    accountAlerts,
    keysRevoked,
    now,
  };
  return {
    accounts,
    handlerFor: (variant: Variant) => createPortalHandler({ variant, pages: PORTAL_PAGES, services, classify }),
    close: () => mailer?.close(),
  };
}
