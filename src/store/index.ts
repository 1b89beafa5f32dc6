import type { StoreConnection } from './database.js';
import { createAccountRepository } from './accounts.js';
import { createMarketRepository } from './markets.js';
import { createPredictionRepository } from './prediction.js';
import { createPriceAlertRepository } from './price-alerts.js';
import { createQuotaDayRepository } from './quota-days.js';
import { createTrustedDocumentRepository } from './trusted-documents.js';
import { createUsageRepository } from './usage.js';
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
    quotaDays: createQuotaDayRepository(connection.db),
    webhooks: createWebhookRepository(connection.db),
    trustedDocuments: createTrustedDocumentRepository(connection.db),
    usage: createUsageRepository(connection.db),
  };
}

export type Store = ReturnType<typeof createStore>;
