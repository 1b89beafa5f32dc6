/**
 * Several instances on PostgreSQL: exactly one runs the jobs, under a lease; the others reload
 * their read models when the one that runs them says what it wrote. One process on SQLite runs
 * its jobs itself (role `all` or `worker`) and listens to nobody.
 */
import type { Logger } from 'pino';
import { createChangeListener } from '../cluster/change-feed.js';
import { coalescedReload } from '../cluster/coalesced-reload.js';
import { createLeaderLease } from '../cluster/leader-lease.js';
import type { Role } from '../config/deployment.js';
import type { MarketReadModel } from '../readmodel/market-read-model.js';
import type { LiveEvents } from '../readmodel/live-events.js';
import type { PredictionReadModel } from '../readmodel/prediction-read-model.js';
import type { Jobs } from './jobs.js';
import type { Stores } from './stores.js';
import { OPERATOR_SCOPE } from '../domain/scope.js';

interface CoordinationDeps {
  role: Role;
  stores: Stores;
  jobs: Pick<Jobs, 'start' | 'stop'>;
  markets: MarketReadModel;
  predictions: PredictionReadModel;
  /** Where other instances' price alert events are published for this one's subscribers. */
  live: LiveEvents;
  logger: Logger;
  now: () => number;
}

export function buildCoordination({ role, stores, jobs, markets, predictions, live, logger, now }: CoordinationDeps) {
  const { pgUrl, jobsStore } = stores;
  const lease =
    pgUrl && role !== 'http'
      ? createLeaderLease({ databaseUrl: pgUrl, holder: stores.holder, logger, onElected: jobs.start, onDemoted: jobs.stop })
      : undefined;
  // One reload of each kind at a time, however many notices arrive meanwhile.
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
          // The jobs' instance published its own events as they happened.
          onPriceAlert: (alertId, at) => {
            if (lease?.isLeader()) return;
            void jobsStore.priceAlerts.findById(alertId, OPERATOR_SCOPE).then(
              (alert) => {
                if (alert && alert.status !== 'active') live.publishPriceAlert({ type: alert.status, alert, at });
              },
              (error: Error) => logger.warn({ alertId, reason: error.message }, 'price alert event not read'),
            );
          },
        })
      : undefined;

  return {
    /** True when this process runs the background jobs now. */
    runsJobs: () => (lease ? lease.isLeader() : role !== 'http'),
    /** Change notices for HTTP roles; the jobs for the others, under the lease with PostgreSQL. */
    async start(): Promise<void> {
      if (role !== 'worker') await changes?.start();
      if (role === 'http') return;
      if (lease) await lease.start();
      else await jobs.start();
    },
    async stop(): Promise<void> {
      await changes?.stop();
      if (lease) await lease.stop();
      else await jobs.stop();
    },
  };
}
