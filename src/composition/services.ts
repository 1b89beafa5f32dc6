/**
 * What the resolvers read (GraphQLServices), the dashboard too: the store, the read models, the
 * management of webhooks (which wakes the jobs' delivery worker), each account's price alerts and
 * the prediction events over the market links.
 */
import type { GraphQLServices } from '../graphql/services.js';
import { AccountAlerts } from '../readmodel/account-alerts.js';
import { createPredictionEvents } from '../readmodel/prediction-events.js';
import type { JobDeps } from './job-deps.js';
import type { Jobs } from './jobs.js';

interface ServicesDeps extends Pick<JobDeps, 'config' | 'stores' | 'markets' | 'predictions' | 'briefs' | 'live' | 'logger' | 'now'> {
  jobs: Pick<Jobs, 'webhooks' | 'morningBriefs'>;
}

export function buildServices({ config, stores, markets, predictions, briefs, live, jobs, logger, now }: ServicesDeps): GraphQLServices {
  const { store } = stores;
  const webhooks = { repo: store.webhooks, activity: store.activity, policy: config.webhooks.policy, onQueued: jobs.webhooks.wake };
  const accountAlerts = new AccountAlerts(store, live);
  const predictionEvents = createPredictionEvents({
    links: store.marketLinks,
    predictions,
    now,
    onError: (error) => logger.warn({ err: error }, 'prediction events: spreads not computed; the next batch tries again'),
  });
  return {
    store,
    markets,
    briefs,
    predictions,
    predictionEvents,
    morningBriefs: jobs.morningBriefs,
    webhooks,
    live,
    accountAlerts,
    now,
  };
}
