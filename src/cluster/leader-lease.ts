/**
 * Exactly one worker runs the background jobs (ingest, detectors, alert evaluation, the brief
 * schedule): whoever holds a PostgreSQL advisory lock. The lock lives as long as the holder's
 * connection, so a worker that dies (process killed, machine gone, connection cut) releases it,
 * and a waiting worker, trying every `retryMs`, takes over within seconds.
 */
import pg from 'pg';
import type { Logger } from 'pino';

/** Advisory locks are per database; the schema is part of the key, so deployments sharing a database (one schema each) do not share a leader. */
const TRY_LOCK = `select pg_try_advisory_lock(hashtext('market-gateway jobs:' || current_schema())) as locked`;

interface LeaderLeaseOptions {
  databaseUrl: string;
  logger: Logger;
  onElected: () => Promise<void>;
  onDemoted: () => Promise<void>;
  /** How often a follower tries for the lock, and the leader checks its connection (default 1 s). */
  retryMs?: number;
}

interface LeaderLease {
  /** Resolves after the first attempt (and, when it won the lease, after the jobs have started). */
  start(): Promise<void>;
  stop(): Promise<void>;
  isLeader(): boolean;
}

export function createLeaderLease(options: LeaderLeaseOptions): LeaderLease {
  const { logger } = options;
  const retryMs = options.retryMs ?? 1_000;
  let client: pg.Client | undefined;
  let leader = false;
  let stopped = true;
  let timer: NodeJS.Timeout | undefined;
  // Transitions run one at a time, so a demotion never overlaps an election.
  let transition: Promise<void> = Promise.resolve();

  async function demote(reason: string): Promise<void> {
    const held = client;
    client = undefined;
    // Errors of a connection being dropped are expected; a listener must stay, or Node throws them.
    held?.removeAllListeners('error').on('error', () => undefined);
    await held?.end().catch(() => undefined);
    if (!leader) return;
    leader = false;
    if (stopped) logger.info('released the jobs lease');
    else logger.warn({ reason }, 'lost the jobs lease; background jobs stopped');
    await options.onDemoted();
  }

  async function attempt(): Promise<void> {
    if (stopped) return;
    if (leader && client) {
      // Still holding it? A broken connection means the lock is gone too.
      await client.query('select 1').catch((error: Error) => demote(`connection check failed: ${error.message}`));
      return;
    }
    try {
      client ??= await connect();
      const { rows } = await client.query<{ locked: boolean }>(TRY_LOCK);
      if (!rows[0]?.locked || stopped) return;
      leader = true;
      logger.info('holding the jobs lease; starting background jobs');
      await options.onElected();
    } catch (error) {
      await demote(`lease attempt failed: ${(error as Error).message}`);
    }
  }

  async function connect(): Promise<pg.Client> {
    const c = new pg.Client({
      connectionString: options.databaseUrl,
      connectionTimeoutMillis: 2_000,
      keepAlive: true,
      application_name: 'market-gateway jobs lease',
    });
    // An error on an idle connection is reported here; the next attempt notices and demotes.
    c.on('error', (error) => logger.warn({ reason: error.message }, 'jobs lease connection error'));
    await c.connect();
    return c;
  }

  function loop(): Promise<void> {
    if (stopped) return transition;
    transition = transition.then(attempt, attempt).finally(() => {
      if (!stopped) timer = setTimeout(loop, retryMs).unref();
    });
    return transition;
  }

  return {
    start() {
      if (!stopped) return transition;
      stopped = false;
      return loop();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await transition;
      await demote('stopping');
    },
    isLeader: () => leader,
  };
}
