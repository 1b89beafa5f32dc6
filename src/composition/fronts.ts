/**
 * What the two listeners serve, over the services and the edges: /graphql (Apollo, the compiled
 * path, subscriptions), readiness, the account dashboard, and one app per variant over them all.
 */
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Classify } from '../edge/classify.js';
import type { DegradedAnswers } from '../edge/degraded.js';
import type { GraphQLServices } from '../graphql/services.js';
import type { createMetrics } from '../metrics/metrics.js';
import type { buildAccess } from './access.js';
import { buildGraphQL } from './graphql.js';
import { buildReadiness } from './health.js';
import type { Jobs } from './jobs.js';
import { buildDashboard } from './dashboard.js';
import type { Stores } from './stores.js';
import { buildVariantApps } from './variants.js';

interface FrontsDeps {
  config: Config;
  stores: Stores;
  access: Pick<ReturnType<typeof buildAccess>, 'authenticator' | 'quota' | 'edges'>;
  services: GraphQLServices;
  jobs: Pick<Jobs, 'liveFeeds'>;
  metrics: ReturnType<typeof createMetrics>;
  degraded: DegradedAnswers;
  classify: Classify;
  logger: Logger;
  now: () => number;
}

/** GraphQL's parts (its schema, its stop), the dashboard's (its accounts, its close) and the app of each listener. */
export async function buildFronts({ config, stores, access, services, jobs, metrics, degraded, classify, logger, now }: FrontsDeps) {
  const { markets, predictions } = services;
  const graphql = await buildGraphQL({ config, authenticator: access.authenticator, services, metrics, classify, logger });
  const ready = buildReadiness({ stores, markets, predictions, liveFeeds: jobs.liveFeeds, now, degraded, dataDir: stores.pgUrl ? undefined : config.dataDir });
  const dashboard = buildDashboard({
    config,
    stores,
    quota: access.quota,
    keysRevoked: (keyIds) => access.authenticator.forgetKeys(keyIds),
    webhooks: services.webhooks,
    accountAlerts: services.accountAlerts,
    classify,
    logger,
    now,
  });
  const apps = buildVariantApps({
    edges: access.edges,
    graphql,
    services,
    ready,
    metrics,
    classify,
    logger,
    legacy: config.legacy,
    dashboard: dashboard.handlerFor,
  });
  return { graphql, dashboard, apps };
}
