/**
 * Exactly one worker runs the background jobs (ingest, detectors, alert evaluation, the brief
 * schedule): whoever holds a PostgreSQL advisory lock. The lock lives as long as the holder's
 * connection, so a worker that dies (process killed, machine gone, connection cut) releases it,
 * and a waiting worker, trying every `retryMs`, takes over within seconds.
 *
 * A holder that hangs (stopped, swapping, a long GC) keeps its connection and so the lock: the
 * lease row says since when it last renewed. A standby that finds it stale for `staleMs`
 * terminates the holder's lock session, takes the lock and the row; the fence of the jobs tables
 * (migration 0005) then refuses every write of the old holder's jobs sessions, so when it wakes up
 * it cannot write as leader, and its next check finds the lease gone and stops its jobs.
 */
import type pg from 'pg';
import type { Logger } from 'pino';

/** Advisory locks are per database; the schema is part of the key, so deployments sharing a database (one schema each) do not share a leader. */
const TRY_LOCK = `select pg_try_advisory_lock(hashtext('market-gateway jobs:' || current_schema())) as locked`;
/** Milliseconds on PostgreSQL's clock: every instance compares renewals on the same clock. */
const DB_NOW_MS = `(extract(epoch from clock_timestamp()) * 1000)::bigint`;
const CLAIM = `insert into jobs_lease (name, holder, renewed_at, backend_pid) values ('jobs', $1, ${DB_NOW_MS}, pg_backend_pid())
  on conflict (name) do update set holder = excluded.holder, renewed_at = excluded.renewed_at, backend_pid = excluded.backend_pid`;
const RENEW = `update jobs_lease set renewed_at = ${DB_NOW_MS} where name = 'jobs' and holder = $1`;
/**
 * Who holds the lease and how long since it renewed; its lock session is terminated when that is
 * over $1 ms. Only a session that still holds an advisory lock: a dead holder's process id may
 * belong to another session by now.
 */
const LOOK_AT_HOLDER = `select holder, ${DB_NOW_MS} - renewed_at as silent_ms,
    case when ${DB_NOW_MS} - renewed_at > $1 and backend_pid <> pg_backend_pid()
      and exists (select 1 from pg_locks where locktype = 'advisory' and granted and pid = jobs_lease.backend_pid)
    then pg_terminate_backend(backend_pid) else false end as terminated
  from jobs_lease where name = 'jobs'`;

interface LeaderLeaseOptions {
  databaseUrl: string;
  /** This process, as named in the lease row and by its jobs sessions (`mgw.jobs_holder`). */
  holder: string;
  /** A holder that has not renewed for this long is taken over (default 5 s; takeover within this plus `retryMs`). */
  staleMs?: number;
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

/** The lease's own connection (the lock lives as long as it does). */
async function connect(databaseUrl: string, logger: Logger): Promise<pg.Client> {
  const { default: pg } = await import('pg');
  const c = new pg.Client({
    connectionString: databaseUrl,
    connectionTimeoutMillis: 2_000,
    keepAlive: true,
    application_name: 'market-gateway jobs lease',
  });
  // An error on an idle connection is reported here; the next attempt notices and demotes.
  c.on('error', (error) => logger.warn({ reason: error.message }, 'jobs lease connection error'));
  await c.connect();
  return c;
}

interface HolderSeen {
  holder: string | null;
  silentMs: number | null;
  terminated: boolean;
}

/** One try for the lock: true when taken; otherwise who holds it (whose lock session is ended if it stopped renewing). */
async function tryLock(client: pg.Client, staleMs: number): Promise<true | HolderSeen> {
  const { rows } = await client.query<{ locked: boolean }>(TRY_LOCK);
  if (rows[0]?.locked) return true;
  const { rows: seen } = await client.query<{ holder: string; silent_ms: string; terminated: boolean }>(LOOK_AT_HOLDER, [staleMs]);
  const row = seen[0];
  return { holder: row?.holder ?? null, silentMs: row ? Number(row.silent_ms) : null, terminated: row?.terminated ?? false };
}

export function createLeaderLease(options: LeaderLeaseOptions): LeaderLease {
  const { logger } = options;
  const retryMs = options.retryMs ?? 1_000;
  const staleMs = options.staleMs ?? 5_000;
  let client: pg.Client | undefined;
  let leader = false;
  let stopped = true;
  let timer: NodeJS.Timeout | undefined;
  // Transitions run one at a time, so a demotion never overlaps an election.
  let transition: Promise<void> = Promise.resolve();
  // What a standby last said about its waiting, so each new situation is logged once, not every retry.
  let lastSaid = '';
  function sayOnce(what: string, say: () => void): void {
    if (what === lastSaid) return;
    lastSaid = what;
    say();
  }

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
      // Still holding it? Renewing says so; a broken connection or a row taken over means it is gone.
      const renewed = await client.query(RENEW, [options.holder]).then(
        (result) => result.rowCount === 1,
        (error: Error) => demote(`connection check failed: ${error.message}`).then(() => true),
      );
      if (!renewed) await demote('another worker took the lease over (this one had stopped renewing it)');
      return;
    }
    try {
      client ??= await connect(options.databaseUrl, logger);
      const taken = await tryLock(client, staleMs);
      if (taken !== true) return standBy(taken);
      if (stopped) return;
      await client.query(CLAIM, [options.holder]);
      leader = true;
      lastSaid = '';
      logger.info('holding the jobs lease; starting background jobs');
      await options.onElected();
    } catch (error) {
      const reason = (error as Error).message;
      // Not holding it, demote says nothing: a standby that cannot even try must say why.
      if (!leader) sayOnce(`failed ${reason}`, () => logger.warn({ reason }, 'cannot try for the jobs lease; retrying'));
      await demote(`lease attempt failed: ${reason}`);
    }
  }

  /** Another session holds the lock: said once per holder, and loudly when it is silent yet could not be taken over. */
  function standBy({ holder, silentMs, terminated }: HolderSeen): void {
    if (terminated) {
      logger.warn({ holder, silentMs, staleMs }, 'the jobs lease holder stopped renewing; its lock session was ended');
      lastSaid = '';
      return;
    }
    if (silentMs !== null && silentMs > staleMs) {
      sayOnce(`stuck ${holder}`, () => logger.warn({ holder, silentMs }, 'the jobs lock is held by a session that is not the lease holder; waiting'));
      return;
    }
    sayOnce(`held ${holder}`, () => logger.info({ holder }, 'another instance holds the jobs lease; standing by'));
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
