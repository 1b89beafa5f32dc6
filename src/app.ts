/**
 * The composition root: the only module that knows every part. It opens the stores, loads the
 * read models and composes the builders of src/composition (jobs, their coordination, access,
 * the services, what the listeners serve: GraphQL, readiness, the dashboard, the two apps), each of
 * which returns what it starts and stops.
 */
import type { Logger } from 'pino';
import { buildAccess } from './composition/access.js';
import { buildCoordination } from './composition/coordination.js';
import { buildFronts } from './composition/fronts.js';
import { buildJobs } from './composition/jobs.js';
import { loadReadModels } from './composition/read-models.js';
import { buildServices } from './composition/services.js';
import { API_PATHS } from './composition/variants.js';
import { LiveEvents } from './readmodel/live-events.js';
import { openStores } from './composition/stores.js';
import { ConfigError, type Config } from './config/config.js';
import { checkDeployment, type Role } from './config/deployment.js';
import { storeLocation } from './config/open-store.js';
import { createClassifier } from './edge/classify.js';
import { createDegradedAnswers } from './edge/degraded.js';
import { connectionLimitsFor } from './http/http-server.js';
import { bindListeners } from './http/listeners.js';
import { openFileLimit } from './http/open-files.js';
import { v8HeapOf } from './config/v8-heap.js';
import { createLogger, consoleDestination, logsForPeople } from './logging/logger.js';
import { listeningBlock } from './logging/listening-block.js';
import { createMetrics } from './metrics/metrics.js';
import { startMetricsExport } from './telemetry/metrics-export.js';
import { startTracing, tracingRequested } from './telemetry/tracing.js';

/** How long a stop waits for the last spans and metrics to reach the collector. */
const TRACES_FLUSH_MS = 2_000;

/** `all`: HTTP and the background jobs (the embedded default); `http`: stateless API only; `worker`: jobs only. */
export type { Role } from './config/deployment.js';

interface ServiceOptions {
  logger?: Logger;
  now?: () => number;
  role?: Role;
}

export async function createService(config: Config, options: ServiceOptions = {}) {
  const logger = options.logger ?? createLogger(config.logLevel, consoleDestination(config.logFormat), tracingRequested(config.otel));
  const now = options.now ?? Date.now;
  const role = options.role ?? 'all';
  // Before the stores open (their queries are traced) and the listeners serve; off without an OTLP endpoint.
  const traces = await startTracing(config.otel, (message) => logger.warn(message));

  const stores = await openStores(config, logger);
  const { store } = stores;
  const { markets, predictions, briefs } = await loadReadModels(stores, now);

  const metrics = createMetrics(API_PATHS);
  const metricsExport = await startMetricsExport(config.otel, metrics.semconv.source, (message) => logger.warn(message));
  const degraded = createDegradedAnswers(logger, metrics.degradedAnswers);
  const classify = createClassifier(degraded, logger);
  const live = new LiveEvents();
  const jobs = buildJobs({ config, stores, markets, predictions, briefs, live, metrics, logger, now });
  const coordination = buildCoordination({ role, stores, jobs, markets, predictions, live, logger, now });
  const access = buildAccess({ config, stores, metrics, degraded, classify, logger, now });
  metrics.watchWebhookQueue(() => store.webhooks.queueStats());
  const services = buildServices({ config, stores, markets, predictions, briefs, live, jobs, logger, now });
  const { graphql, dashboard, apps } = await buildFronts({ config, stores, access, services, jobs, metrics, degraded, classify, logger, now });

  return {
    logger,
    role,
    store,
    /** The unified schema and what its resolvers read (the bench's stock Apollo serves them too). */
    schema: graphql.schema,
    services,
    markets,
    predictions,
    ingest: jobs.ingest,
    predictionIngest: jobs.predictionIngest,
    /** The market links' linker (runs with the jobs). */
    linker: jobs.linker,
    morningBriefs: jobs.morningBriefs,
    liveFeeds: jobs.liveFeeds,
    alerts: jobs.alerts,
    /** The webhook delivery worker (runs with the jobs). */
    webhookWorker: jobs.webhooks,
    sharedQuota: access.sharedQuota,
    /** The account dashboard's sign-in rules (invitations and reset links for the CLI's tests). */
    dashboardAccounts: dashboard.accounts,
    /** Usage records of this process (undefined with USAGE_RECORDING=off): flush() writes what it counted. */
    usage: access.usage,
    redis: stores.redis,
    /** Prometheus registry: requests, latency, quotas, alerts, degraded answers, feeds, the process. */
    metrics: metrics.registry,
    marketDataApp: apps.A,
    predictionApp: apps.B,
    runsJobs: coordination.runsJobs,
    /**
     * Starts background work for the role: revocation polling and change notices for HTTP; the jobs
     * (ingest with its backfill, live feeds, the brief schedule) for workers, under the lease with
     * PostgreSQL so that exactly one instance runs them.
     */
    async startBackground(): Promise<void> {
      if (role !== 'worker') access.start();
      await coordination.start();
    },
    async close(): Promise<void> {
      await coordination.stop();
      jobs.close();
      await graphql.stop();
      await access.stop();
      dashboard.close();
      await stores.close();
      // The spans still queued go to the collector, within the stop's time; one that is down costs at most this.
      await Promise.all([traces?.shutdown(TRACES_FLUSH_MS), metricsExport?.shutdown(TRACES_FLUSH_MS)]);
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
  // Node starts with the soft limit raised to the hard one; the listeners' caps keep descriptors for everyone.
  const openFiles = openFileLimit();
  const limits = connectionLimitsFor(openFiles?.soft, config.maxConnectionsPerClient);
  const listeners =
    role === 'worker'
      ? []
      : await bindListeners([
          { variant: 'A', port: config.marketDataPort, host: config.host, setting: 'MARKET_DATA_PORT', limits },
          { variant: 'B', port: config.predictionPort, host: config.host, setting: 'PREDICTION_PORT', limits },
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
  // A person at a terminal gets where to go, in a few lines; a collector (a pipe, a file) the JSON line.
  if (a !== undefined && b !== undefined && !options.logger && logsForPeople(config.logFormat)) {
    service.logger.info({ role: service.role, store: storeLocation(config), startupMs: Date.now() - started }, 'market-gateway listening');
    process.stdout.write(listeningBlock({ host: config.host, explorer: config.graphql.introspection }, a, b));
  } else
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
        ...(openFiles ? { openFiles, connections: limits } : {}),
        // Started without the bin (node dist/... directly), V8's defaults hold more memory (docs/operations.md).
        v8Heap: v8HeapOf(process.execArgv, process.env.NODE_OPTIONS),
        mallocArenaMax: process.env.MALLOC_ARENA_MAX ?? 'glibc default',
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
