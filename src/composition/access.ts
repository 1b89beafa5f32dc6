/**
 * Who may ask and how much: the authenticator (keys, revocations), the quota (Redis for several
 * instances, else the process and its store), and one edge per listener over them.
 */
import type { Logger } from 'pino';
import { createAuthenticator } from '../auth/authenticator.js';
import type { Config } from '../config/config.js';
import type { Variant } from '../domain/variant.js';
import type { DegradedAnswers } from '../edge/degraded.js';
import type { Classify } from '../edge/classify.js';
import { createEdge, type Edge } from '../edge/edge.js';
import type { createMetrics } from '../metrics/metrics.js';
import { createStoreQuota } from '../quota/index.js';
import { createRedisQuota } from '../quota/redis-quota.js';
import { createUsageRecorder } from '../usage/usage-recorder.js';
import type { Stores } from './stores.js';

interface AccessDeps {
  config: Config;
  stores: Stores;
  metrics: ReturnType<typeof createMetrics>;
  degraded: DegradedAnswers;
  classify: Classify;
  logger: Logger;
  now: () => number;
}

export function buildAccess({ config, stores, metrics, degraded, classify, logger, now }: AccessDeps) {
  const { store, redis } = stores;
  let staleLoggedAt = 0;
  const authenticator = createAuthenticator({
    accounts: store.accounts,
    pollMs: config.revocationPollMs,
    ttlMs: config.keyCacheTtlMs,
    now,
    onError: (error) => logger.warn({ err: error }, 'revocation poll failed'),
    // Counted each time, logged at most every 10 s: an outage would otherwise log every request.
    onStale: (error) => {
      metrics.degradedAnswers.inc({ where: 'known key, store unavailable' });
      if (Date.now() - staleLoggedAt < 10_000) return;
      staleLoggedAt = Date.now();
      logger.warn({ reason: (error as Error)?.message ?? String(error) }, 'store unavailable: keys this instance knows stay admitted on their cached entries');
    },
  });
  const sharedQuota = redis ? createRedisQuota({ redis, days: store.quotaDays, logger, limits: config.planLimits }) : undefined;
  const storeQuota = sharedQuota ? undefined : createStoreQuota(store.connection, config.planLimits);
  const quota = sharedQuota ?? storeQuota!;
  const usage = config.usage.recording ? createUsageRecorder({ usage: store.usage, ...config.usage, logger, now }) : undefined;
  // One edge per listener: its variant labels the refusals and metrics of every transport there.
  const edgeFor = (variant: Variant): Edge =>
    createEdge({
      variant,
      authenticator,
      quota,
      now,
      classify,
      upgradeUrl: config.dashboard.upgradeUrl,
      onDegraded: (error) => degraded.record(`quota ${variant}`, error),
      onRefused: (product) => metrics.quotaRejections.inc({ variant, product }),
      ...(usage ? { onMetered: usage.meter(variant) } : {}),
    });
  return {
    edges: { A: edgeFor('A'), B: edgeFor('B') } satisfies Record<Variant, Edge>,
    /** Checks keys again for connections that outlive a request (subscriptions). */
    authenticator,
    sharedQuota,
    /** The quota the edges spend (the dashboard reads it without spending). */
    quota,
    /** Requests counted per day, account, key and route; written to the store in batches. */
    usage,
    /** Revocations are polled by the instances that answer requests. */
    start: () => authenticator.start(),
    async stop(): Promise<void> {
      authenticator.stop();
      storeQuota?.stop();
      await Promise.all([sharedQuota?.stop(), usage?.stop()]);
    },
  };
}
