import type { StoreConnection } from './database.js';
import { createAccountRepository } from './accounts.js';
import { createActivityRepository } from './activity.js';
import { createMarketLinkRepository } from './market-links.js';
import { createMarketRepository } from './markets.js';
import { createOneTimeTokenRepository } from './one-time-tokens.js';
import { createPredictionRepository } from './prediction.js';
import { createPriceAlertRepository } from './price-alerts.js';
import { createQuotaDayRepository } from './quota-days.js';
import { createSessionRepository } from './sessions.js';
import { createTrustedDocumentRepository } from './trusted-documents.js';
import { createUsageRepository } from './usage.js';
import { createUserRepository } from './users.js';
import { createWebhookRepository } from './webhooks.js';

export { openStore, type StoreConnection } from './database.js';

/** The repositories over one connection. */
export function createStore(connection: StoreConnection) {
  return {
    connection,
    accounts: createAccountRepository(connection.db, connection.sqlite),
    markets: createMarketRepository(connection.db),
    priceAlerts: createPriceAlertRepository(connection.db),
    prediction: createPredictionRepository(connection.db),
    marketLinks: createMarketLinkRepository(connection.db),
    quotaDays: createQuotaDayRepository(connection.db),
    webhooks: createWebhookRepository(connection.db),
    trustedDocuments: createTrustedDocumentRepository(connection.db),
    usage: createUsageRepository(connection.db, connection.sqlite),
    users: createUserRepository(connection.db),
    sessions: createSessionRepository(connection.db),
    oneTimeTokens: createOneTimeTokenRepository(connection.db),
    activity: createActivityRepository(connection.db),
  };
}

export type Store = ReturnType<typeof createStore>;
