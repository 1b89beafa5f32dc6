/**
 * The composition root: the only module that knows every part. It opens the store, loads the
 * read model, starts ingest, and wires the edge, the schema and the facades into two listeners.
 */
import { sql } from 'kysely';
import type { Logger } from 'pino';
import { createAlertEvaluator } from './alerts/alert-evaluator.js';
import { createBriefService } from './analytics/brief-service.js';
import { createAuthenticator } from './auth/authenticator.js';
import { createBriefWriter } from './brief/index.js';
import { createMorningBriefService } from './brief/morning-briefs.js';
import { ConfigError, type Config } from './config/config.js';
import { checkDeployment, type Role } from './config/deployment.js';
import type { GraphQLServices } from './graphql/services.js';
import { createSchema } from './graphql/schema.js';
import { bindListeners } from './http/listeners.js';
import { graphqlGuards } from './graphql-http/guards.js';
import { createOperationCompiler } from './graphql-http/compiled-operations.js';
import { createGraphQLHttpHandler } from './graphql-http/http-handler.js';
import { createErrorFormatter, createGraphQLServer } from './graphql-http/apollo-server.js';
import { createEdge, type Edge } from './edge/edge.js';
import type { Variant } from './domain/variant.js';
import { createDegradedAnswers } from './edge/degraded.js';
import { createHttpMetrics } from './metrics/http-metrics.js';
import { createMetrics } from './metrics/metrics.js';
import { createVariantApp } from './http/variant-app.js';
import { createDemoFeed } from './ingest/demo/feed.js';
import { createDemoPredictionFeed } from './ingest/demo/prediction/feed.js';
import { withoutSymbols } from './ingest/demo/without-symbols.js';
import { createIngestRunner } from './ingest/ingest-runner.js';
import { createPredictionIngestRunner } from './ingest/prediction-ingest-runner.js';
import { createLogger } from './logging/logger.js';
import { createStoreQuota } from './quota/index.js';
import { createRedisClient, waitForRedis } from './quota/redis-client.js';
import { createRedisQuota } from './quota/redis-quota.js';
import { MarketReadModel } from './readmodel/market-read-model.js';
import { PredictionReadModel } from './readmodel/prediction-read-model.js';
import { createFacadeHandler } from './rest/facade.js';
import { buildOpenApiDocument } from './rest/openapi.js';
import { marketDataRoutes } from './rest/routes/market-data.js';
import { predictionRoutes } from './rest/routes/prediction.js';
import { coalescedReload } from './cluster/coalesced-reload.js';
import { createChangeListener, createChangeNotifier } from './cluster/change-feed.js';
import { createLeaderLease } from './cluster/leader-lease.js';
import { createStore } from './store/index.js';
import { openConfiguredStore, storeLocation } from './config/open-store.js';
import { createLiveFeeds, feedReport, type FeedReport } from './upstream/live-feeds.js';
import { createConnectors, liveSymbols } from './upstream/registry.js';

/** `all`: HTTP and the background jobs (the embedded default); `http`: stateless API only; `worker`: jobs only. */
export type { Role } from './config/deployment.js';

export interface ServiceOptions {
  logger?: Logger;
  now?: () => number;
  role?: Role;
}

export async function createService(config: Config, options: ServiceOptions = {}) {
  const logger = options.logger ?? createLogger(config.logLevel);
  const now = options.now ?? Date.now;
  const role = options.role ?? 'all';
  const connectors = createConnectors(config.feeds.live, config.upstream);
  // Several instances share Redis for exact quotas; one process counts in memory and its store.
  // Connected first: a setup the server refuses stops start-up before the store is opened.
  const redis = config.redisUrl ? createRedisClient(config.redisUrl, logger) : undefined;
  const redisSetup = redis ? await waitForRedis(redis, 2_000, logger) : {};
  if (redisSetup.refused !== undefined) {
    redis?.disconnect();
    throw new ConfigError(`REDIS_URL: the server refused the connection's setup (${redisSetup.refused})`);
  }

  const store = createStore(await openConfiguredStore(config));
  // Background work (ingest batches, read-model loads) may take longer than a request may wait: on
  // PostgreSQL it has its own small pool whose statements may take 8 s (still inside a 10 s shutdown).
  // SQLite needs no second handle.
  const jobsStore =
    store.connection.engine === 'postgres' ? createStore(await openConfiguredStore(config, { queryTimeoutMs: 8_000, poolMax: 4, migrate: false })) : store;
  // With PostgreSQL, several instances may run: the worker tells the others what changed.
  const pgUrl = store.connection.engine === 'postgres' ? config.databaseUrl : undefined;
  const notifier = pgUrl && jobsStore.connection.pgPool ? createChangeNotifier(jobsStore.connection.pgPool, logger) : undefined;
  const markets = new MarketReadModel();
  await markets.load(jobsStore.markets);
  const briefs = createBriefService(store.markets);
  const predictions = new PredictionReadModel();
  await predictions.load(jobsStore.prediction, now());

  const metrics = createMetrics();
  const alerts = createAlertEvaluator({
    alerts: jobsStore.priceAlerts,
    briefs,
    logger,
    onTransition: (_alert, status) => metrics.alerts.inc({ kind: `price_${status}` }),
  });
  const ingest = createIngestRunner({
    store: jobsStore,
    markets,
    feed: config.feeds.demo ? withoutSymbols(createDemoFeed({ seed: config.demoSeed, now: now() }), liveSymbols(connectors)) : undefined,
    tickMs: config.demoTickMs,
    alerts,
    onChange: () => notifier?.changed('market-data'),
    logger,
    now,
  });

  const predictionIngest = createPredictionIngestRunner({
    repo: jobsStore.prediction,
    readModel: predictions,
    feed: config.feeds.demo ? createDemoPredictionFeed({ seed: config.demoSeed, now: now() }) : undefined,
    tickMs: config.demoTickMs,
    onChange: () => notifier?.changed('prediction'),
    onAlerts: (count) => metrics.alerts.inc({ kind: 'movement' }, count),
    logger,
    now,
  });
  const liveFeeds = createLiveFeeds({
    connectors,
    upstream: config.upstream,
    acceptMarketData: ingest.accept,
    acceptPrediction: predictionIngest.accept,
    logger,
    now,
  });
  const morningBriefs = createMorningBriefService({
    repo: store.prediction,
    readModel: predictions,
    composer: createBriefWriter(
      { llmBaseUrl: config.llm.baseUrl, llmModel: config.llm.model, llmApiKey: config.llm.apiKey, llmTimeoutMs: config.llm.timeoutMs },
      logger,
    ),
    hourUtc: config.briefHourUtc,
    now,
    logger,
  });

  const authenticator = createAuthenticator({
    accounts: store.accounts,
    pollMs: config.revocationPollMs,
    onError: (error) => logger.warn({ err: error }, 'revocation poll failed'),
  });
  const sharedQuota = redis ? createRedisQuota({ redis, days: store.quotaDays, logger, limits: config.planLimits }) : undefined;
  const quota = sharedQuota ?? createStoreQuota(store.connection, config.planLimits);
  metrics.watchFeeds(() => liveFeeds.stats());
  const degraded = createDegradedAnswers(logger, metrics.degradedAnswers);
  // One edge per listener: its variant labels the refusals and metrics of every transport there.
  const edgeFor = (variant: Variant) =>
    createEdge({
      variant,
      authenticator,
      quota,
      now,
      onDegraded: (error) => degraded.record(`quota ${variant}`, error),
      onRefused: (product) => metrics.quotaRejections.inc({ variant, product }),
    });
  const edges = { A: edgeFor('A'), B: edgeFor('B') };

  const services: GraphQLServices = { store, markets, briefs, predictions, morningBriefs, now };
  const schema = createSchema();
  const guards = graphqlGuards();
  const formatError = createErrorFormatter({ degraded, logger, suggestions: config.graphql.suggestions });
  const apollo = await createGraphQLServer({ schema, guards, formatError, production: config.production, ...config.graphql, logger, degraded });
  const compiler = createOperationCompiler(schema, { validationRules: guards.validationRules, maxTokens: guards.parseOptions.maxTokens });
  const graphqlFor = (edge: Edge) =>
    createGraphQLHttpHandler({
      server: apollo,
      schema,
      compiler,
      edge,
      services,
      formatError,
      requests: metrics.graphqlRequests,
      degraded,
      maxBodyBytes: 100 * 1024,
    });

  /** `stale`: markets exist but none is active (their quotes are older than their bound); `no data yet`: nothing at all. */
  const dataCheck = (): 'fresh' | 'stale' | 'no data yet' => {
    if (markets.list({ status: 'active' }, now()).length > 0 || predictions.all().length > 0) return 'fresh';
    return markets.list({}, now()).length > 0 ? 'stale' : 'no data yet';
  };
  const ready = async () => {
    const checks: Record<string, string> = {};
    try {
      await sql`select 1`.execute(store.connection.db);
      checks.store = 'ok';
    } catch {
      checks.store = 'unreachable';
    }
    checks.data = dataCheck();
    const feeds: Record<string, FeedReport> = {};
    for (const feed of liveFeeds.stats()) {
      // Informative only: a failing upstream degrades freshness, not readiness (the last good data is served).
      feeds[feed.source] = feedReport(feed);
      checks[`feed_${feed.source}`] = feeds[feed.source]!.state;
    }
    if (redis) checks.redis = redis.status === 'ready' ? 'ok' : 'unreachable';
    return { ok: checks.store === 'ok' && checks.data === 'fresh' && checks.redis !== 'unreachable', checks, details: { feeds } };
  };

  const httpMetrics = createHttpMetrics(
    metrics.registry,
    [...marketDataRoutes, ...predictionRoutes].map((r) => r.path),
  );
  const marketDataApp = createVariantApp({
    variant: 'A',
    facade: createFacadeHandler({ routes: marketDataRoutes, schema, edge: edges.A, services, logger, degraded }),
    graphql: graphqlFor(edges.A),
    openApiDocument: buildOpenApiDocument({
      variant: 'A',
      title: 'market-gateway: market data (variant A)',
      version: '1.0.0',
      description: 'Markets, real-time briefs and price alerts.',
      routes: marketDataRoutes,
    }),
    ready,
    logger,
    degraded,
    metrics: metrics.registry,
    httpMetrics,
  });
  const predictionApp = createVariantApp({
    variant: 'B',
    facade: createFacadeHandler({ routes: predictionRoutes, schema, edge: edges.B, services, logger, degraded }),
    graphql: graphqlFor(edges.B),
    openApiDocument: buildOpenApiDocument({
      variant: 'B',
      title: 'market-gateway: prediction markets (variant B)',
      version: '1.0.0',
      description: 'The most active prediction markets, the morning brief and movement alerts. Pro plan.',
      routes: predictionRoutes,
    }),
    ready,
    logger,
    degraded,
    metrics: metrics.registry,
    httpMetrics,
  });

  const jobs = {
    async start() {
      await Promise.all([ingest.start(), predictionIngest.start()]);
      liveFeeds.start();
      morningBriefs.start();
    },
    async stop() {
      await Promise.all([liveFeeds.stop(), ingest.stop(), predictionIngest.stop(), morningBriefs.stop()]);
    },
  };
  const lease = pgUrl && role !== 'http' ? createLeaderLease({ databaseUrl: pgUrl, logger, onElected: jobs.start, onDemoted: jobs.stop }) : undefined;
  // Instances that do not run the jobs reload what the one that does has written, one reload of
  // each kind at a time.
  const reloadMarkets = coalescedReload(() => markets.load(jobsStore.markets));
  const reloadPredictions = coalescedReload(() => predictions.load(jobsStore.prediction, now()));
  const changes =
    pgUrl && role !== 'worker'
      ? createChangeListener({
          databaseUrl: pgUrl,
          logger,
          onChange: async (kind) => {
            if (lease?.isLeader()) return;
            if (kind === 'market-data') await reloadMarkets();
            else await reloadPredictions();
          },
        })
      : undefined;

  return {
    logger,
    store,
    /** The unified schema and what its resolvers read (the bench's stock Apollo serves them too). */
    schema,
    services,
    markets,
    predictions,
    ingest,
    predictionIngest,
    morningBriefs,
    liveFeeds,
    alerts,
    sharedQuota,
    redis,
    /** Prometheus registry: requests, latency, quotas, alerts, degraded answers, feeds, the process. */
    metrics: metrics.registry,
    marketDataApp,
    predictionApp,
    role,
    /** True when this process runs the background jobs now. */
    runsJobs: () => (lease ? lease.isLeader() : role !== 'http'),
    /**
     * Starts background work for the role: revocation polling and change notices for HTTP; the jobs
     * (ingest with its backfill, live feeds, the brief schedule) for workers, under the lease with
     * PostgreSQL so that exactly one instance runs them.
     */
    async startBackground(): Promise<void> {
      if (role !== 'worker') {
        authenticator.start();
        await changes?.start();
      }
      if (role === 'http') return;
      if (lease) await lease.start();
      else await jobs.start();
    },
    async close(): Promise<void> {
      authenticator.stop();
      await changes?.stop();
      if (lease) await lease.stop();
      else await jobs.stop();
      await apollo.stop();
      await sharedQuota?.stop();
      redis?.disconnect();
      await store.connection.close();
      if (jobsStore !== store) await jobsStore.connection.close();
    },
  };
}

export type Service = Awaited<ReturnType<typeof createService>>;

/**
 * `market-gateway start` (role `all`, the embedded default): both listeners and the jobs in one
 * process; `serve` (role `http`): the listeners only; `worker`: the jobs only, no listener. The
 * listeners bind first: a taken port ends start-up before the store is opened or anything written.
 */
export async function startService(config: Config, options: ServiceOptions = {}) {
  const started = Date.now();
  const role = options.role ?? 'all';
  const deployment = checkDeployment(config, role);
  if (deployment.errors.length > 0) throw new ConfigError(deployment.errors[0]!);
  const listeners =
    role === 'worker'
      ? []
      : await bindListeners([
          { variant: 'A', port: config.marketDataPort, host: config.host, setting: 'MARKET_DATA_PORT' },
          { variant: 'B', port: config.predictionPort, host: config.host, setting: 'PREDICTION_PORT' },
        ]);
  const closeListeners = () => Promise.all(listeners.map((l) => l.server.drain()));
  let service: Service;
  try {
    service = await createService(config, options);
    await service.startBackground();
  } catch (error) {
    await closeListeners();
    throw error;
  }
  for (const warning of deployment.warnings) service.logger.warn(warning);
  const [a, b] = listeners.map((l) => l.port);
  listeners[0]?.attach(service.marketDataApp);
  listeners[1]?.attach(service.predictionApp);
  service.logger.info(
    {
      role: service.role,
      ...(a === undefined
        ? { runsJobs: service.runsJobs() }
        : {
            marketData: `http://${config.host}:${a}/api/v1`,
            prediction: `http://${config.host}:${b}/api/v1`,
            graphql: `http://${config.host}:${a}/graphql`,
            docs: `http://${config.host}:${a}/docs`,
          }),
      store: storeLocation(config),
      startupMs: Date.now() - started,
    },
    a === undefined ? 'market-gateway worker running' : 'market-gateway listening',
  );
  return {
    ...service,
    ports: { marketData: a, prediction: b },
    /** Drains the listeners (requests in flight finish), stops the jobs, closes the store; logs one line. */
    async stop(): Promise<void> {
      const stopping = Date.now();
      await closeListeners();
      await service.close();
      service.logger.info({ role: service.role, shutdownMs: Date.now() - stopping }, 'market-gateway stopped');
    },
  };
}
