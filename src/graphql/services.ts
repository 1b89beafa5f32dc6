/** What the resolvers read: the store, the read models and the services over them, and the clock. */
import type { BriefService } from '../analytics/brief-service.js';
import type { MorningBriefService } from '../brief/morning-briefs.js';
import type { MarketReadModel } from '../readmodel/market-read-model.js';
import type { AccountAlerts } from '../readmodel/account-alerts.js';
import type { LiveEvents } from '../readmodel/live-events.js';
import type { PredictionEvents } from '../readmodel/prediction-events.js';
import type { PredictionReadModel } from '../readmodel/prediction-read-model.js';
import type { Store } from '../store/index.js';
import type { WebhookManagement } from '../webhooks/endpoints.js';

export interface GraphQLServices {
  store: Store;
  markets: MarketReadModel;
  briefs: BriefService;
  predictions: PredictionReadModel;
  /** Markets that are one question on several venues (market links). */
  predictionEvents: PredictionEvents;
  morningBriefs: MorningBriefService;
  webhooks: WebhookManagement;
  /** Events for live subscriptions that no read model holds (price alerts changing state). */
  live: LiveEvents;
  /** Each account's price alerts, reused while their version holds. */
  accountAlerts: AccountAlerts;
  now(): number;
}
