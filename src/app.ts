/**
 * The composition root: the only module that knows every part. It opens the store, loads the
 * read model, starts ingest, and wires the edge, the schema and the facades into two listeners.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import { createAlertEvaluator } from './alerts/alert-evaluator.js';
import { createBriefService } from './analytics/brief-service.js';
import { createAuthenticator } from './auth/authenticator.js';
import type { Config } from './config/config.js';
import type { GraphQLServices } from './graphql/context.js';
import { createSchema } from './graphql/schema.js';
import { createGraphQLServer, graphqlHandler } from './graphql/server.js';
import { createAdmission } from './http/admission.js';
import { createVariantApp } from './http/variant-app.js';
import { createDemoFeed } from './ingest/demo/feed.js';
import { createIngestRunner } from './ingest/ingest-runner.js';
import { createLogger } from './logging/logger.js';
import { createStoreQuota } from './quota/index.js';
import { MarketReadModel } from './readmodel/market-read-model.js';
import { createFacadeHandler } from './rest/facade.js';
import { buildOpenApiDocument } from './rest/openapi.js';
import { marketDataRoutes } from './rest/routes/market-data.js';
import { createStore, openStore } from './store/index.js';

export interface ServiceOptions {
  logger?: Logger;
  now?: () => number;
}

export async function createService(config: Config, options: ServiceOptions = {}) {
  const logger = options.logger ?? createLogger(config.logLevel);
  const now = options.now ?? Date.now;
  const unknownFeeds = config.feeds.filter((f) => f !== 'demo');
  if (unknownFeeds.length > 0) {
    throw new Error(`FEEDS: unknown or not yet available feed(s): ${unknownFeeds.join(', ')}; available: demo`);
  }

  const store = createStore(await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  const markets = new MarketReadModel();
  await markets.load(store.markets);
  const briefs = createBriefService(store.markets);

  const alerts = createAlertEvaluator({ alerts: store.priceAlerts, briefs, logger });
  const ingest = createIngestRunner({
    store,
    markets,
    feed: createDemoFeed({ seed: config.demoSeed, now: now() }),
    tickMs: config.demoTickMs,
    alerts,
    logger,
    now,
  });

  const authenticator = createAuthenticator({
    accounts: store.accounts,
    pollMs: config.revocationPollMs,
    onError: (error) => logger.warn({ err: error }, 'revocation poll failed'),
  });
  const quota = createStoreQuota(store.connection);
  const admissionFor = (variant: 'A' | 'B') =>
    createAdmission({
      authenticator,
      quota,
      now,
      unauthorizedMessage:
        variant === 'B'
          ? 'a valid API key is required: send it as "Authorization: Bearer <key>" or ?apikey=<key>'
          : undefined,
    });

  const services: GraphQLServices = { store, markets, briefs, now };
  const schema = createSchema();
  const apollo = await createGraphQLServer({ schema, admission: admissionFor('A'), production: config.production, logger });
  const graphql = graphqlHandler(apollo, { admission: admissionFor('A'), services });

  const ready = async () => {
    const checks: Record<string, string> = {};
    try {
      await sql`select 1`.execute(store.connection.db);
      checks.store = 'ok';
    } catch {
      checks.store = 'unreachable';
    }
    checks.data = markets.list({ status: 'active' }, now()).length > 0 ? 'fresh' : 'stale';
    return { ok: checks.store === 'ok' && checks.data === 'fresh', checks };
  };

  const marketDataApp = createVariantApp({
    variant: 'A',
    facade: createFacadeHandler({ variant: 'A', routes: marketDataRoutes, schema, admission: admissionFor('A'), services, logger }),
    graphql,
    openApiDocument: buildOpenApiDocument({
      variant: 'A',
      title: 'market-gateway: market data (variant A)',
      version: '1.0.0',
      description: 'Markets, real-time briefs and price alerts.',
      routes: marketDataRoutes,
    }),
    ready,
    logger,
  });
  const predictionApp = createVariantApp({
    variant: 'B',
    facade: createFacadeHandler({ variant: 'B', routes: [], schema, admission: admissionFor('B'), services, logger }),
    graphql,
    openApiDocument: buildOpenApiDocument({
      variant: 'B',
      title: 'market-gateway: prediction markets (variant B)',
      version: '1.0.0',
      description: 'Prediction markets (arriving with the variant B facade).',
      routes: [],
    }),
    ready,
    logger,
  });

  return {
    logger,
    store,
    markets,
    ingest,
    alerts,
    marketDataApp,
    predictionApp,
    /** Starts background work: revocation polling and ingest (with its backfill). */
    async startBackground(): Promise<void> {
      authenticator.start();
      await ingest.start();
    },
    async close(): Promise<void> {
      authenticator.stop();
      await ingest.stop();
      await apollo.stop();
      await store.connection.close();
    },
  };
}

export type Service = Awaited<ReturnType<typeof createService>>;

function listen(app: import('express').Express, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.once('listening', () => resolve(server));
    server.once('error', reject);
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

/** `market-gateway serve`: both listeners, ingest and the background jobs in one process. */
export async function startService(config: Config, options: ServiceOptions = {}) {
  const started = Date.now();
  const service = await createService(config, options);
  await service.startBackground();
  const servers = await Promise.all([
    listen(service.marketDataApp, config.marketDataPort, config.host),
    listen(service.predictionApp, config.predictionPort, config.host),
  ]);
  const [a, b] = servers.map((s) => (s.address() as AddressInfo).port);
  service.logger.info(
    {
      marketData: `http://${config.host}:${a}/api/v1`,
      prediction: `http://${config.host}:${b}/api/v1`,
      graphql: `http://${config.host}:${a}/graphql`,
      docs: `http://${config.host}:${a}/docs`,
      store: service.store.connection.engine,
      startupMs: Date.now() - started,
    },
    'market-gateway listening',
  );
  return {
    ...service,
    ports: { marketData: a!, prediction: b! },
    async stop(): Promise<void> {
      await Promise.all(servers.map(closeServer));
      await service.close();
    },
  };
}
