/**
 * The stores a process opens: Redis first (a setup the server refuses stops start-up before the
 * store is opened), then the store for requests and, on PostgreSQL, a second small pool for jobs.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Redis } from 'ioredis';
import { ConfigError, type Config } from '../config/config.js';
import { openConfiguredStore } from '../config/open-store.js';
import { createChangeNotifier } from '../cluster/change-feed.js';
import { createRedisClient, waitForRedis } from '../quota/redis-client.js';
import { createStore, type Store } from '../store/index.js';

export interface Stores {
  redis: Redis | undefined;
  /** For requests: statements bounded to a second on PostgreSQL. */
  store: Store;
  /** For background jobs: the same store on SQLite; on PostgreSQL a pool of 4 whose statements may take 8 s. */
  jobsStore: Store;
  /** Set with PostgreSQL, where several instances may run. */
  pgUrl: string | undefined;
  /** This process in the jobs lease, and on its jobs sessions (the fence of the jobs tables checks it). */
  holder: string;
  /** Tells the other instances what the jobs wrote (PostgreSQL NOTIFY). */
  notifier: ReturnType<typeof createChangeNotifier> | undefined;
  close(): Promise<void>;
}

export async function openStores(config: Config, logger: Logger): Promise<Stores> {
  // Several instances share Redis for exact quotas; one process counts in memory and its store.
  const redis = config.redisUrl ? await createRedisClient(config.redisUrl, logger) : undefined;
  const redisSetup = redis ? await waitForRedis(redis, 2_000, logger) : {};
  if (redisSetup.refused !== undefined) {
    redis?.disconnect();
    throw new ConfigError(`REDIS_URL: the server refused the connection's setup (${redisSetup.refused})`);
  }
  const store = createStore(
    await openConfiguredStore(config, { backgroundCheckpoints: { onError: (error) => logger.warn({ err: error }, 'store: WAL checkpoint') } }),
  );
  // Background work (ingest batches, read-model loads) may take longer than a request may wait; it
  // stays inside a 10 s shutdown. SQLite needs no second handle.
  const jobsStore =
    store.connection.engine === 'postgres' ? createStore(await openConfiguredStore(config, { queryTimeoutMs: 8_000, poolMax: 4, migrate: false })) : store;
  const pgUrl = store.connection.engine === 'postgres' ? config.databaseUrl : undefined;
  const holder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  // Every session of the jobs' pool says whose it is: once another process holds the lease, the
  // fence refuses its writes (queued before the pool hands the session out).
  jobsStore.connection.pgPool?.on('connect', (client) => {
    client.query(`select set_config('mgw.jobs_holder', $1, false)`, [holder]).catch(() => undefined);
  });
  const notifier = pgUrl && jobsStore.connection.pgPool ? createChangeNotifier(jobsStore.connection.pgPool, logger) : undefined;
  return {
    redis,
    store,
    jobsStore,
    pgUrl,
    holder,
    notifier,
    async close() {
      redis?.disconnect();
      await store.connection.close();
      if (jobsStore !== store) await jobsStore.connection.close();
    },
  };
}
