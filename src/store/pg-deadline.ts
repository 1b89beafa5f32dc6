/**
 * The pool Kysely runs PostgreSQL statements on, with one bound for a statement's wait for a
 * connection and the statement together. pg bounds each on its own (`connectionTimeoutMillis`,
 * `query_timeout`), so a request that waited most of its bound for a connection (every connection
 * busy on a hung database) could then spend the whole bound again on its statement: 1.4 s where a
 * second was promised. Here a statement gets what the wait left of `statementMs`, or of the
 * request's deadline where its admission already waited on the store (src/deadline/request-deadline.ts).
 *
 * A statement pg gave up on still runs on the server, on its connection: a client given back to the
 * pool as usual would make the next request wait behind it, and time out in turn. Such a client is
 * destroyed on release instead, and the pool opens a fresh connection for the next request.
 */
import type { PostgresPool } from 'kysely';
import type pg from 'pg';
import { currentStoreDeadline } from '../deadline/request-deadline.js';

/** The subset of pg's pool client Kysely uses (its PostgresPoolClient). */
interface BoundedClient {
  query(sqlOrCursor: unknown, parameters?: readonly unknown[]): unknown;
  release(destroy?: boolean): void;
}

/** What pg rejects a statement with when its `query_timeout` passes. */
const PG_READ_TIMEOUT = 'Query read timeout';
/** pg's own words when `connectionTimeoutMillis` passes: classified as the database's unavailability. */
const PG_CONNECT_TIMEOUT = 'timeout exceeded when trying to connect';

/**
 * A connection from the pool within `ms`, shorter than the pool's own connection bound. A client
 * that comes after the time is up goes back to the pool, for the next request.
 */
function connectWithin(pool: pg.Pool, ms: number): Promise<pg.PoolClient> {
  if (ms <= 0) return Promise.reject(new Error(PG_CONNECT_TIMEOUT));
  return new Promise((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      reject(new Error(PG_CONNECT_TIMEOUT));
    }, ms);
    pool.connect().then(
      (client) => {
        clearTimeout(timer);
        if (late) client.release();
        else resolve(client);
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (!late) reject(error);
      },
    );
  });
}

/**
 * `followsRequestDeadline`: the requests' pool, whose statements also end at the deadline of the
 * request they run for; a pool with a bound of its own (the jobs', the migrations') ignores it.
 */
export function withStatementDeadline(pool: pg.Pool, statementMs: number, { followsRequestDeadline }: { followsRequestDeadline: boolean }): PostgresPool {
  /** One wrapper per pooled client, so Kysely keeps one connection object per client. */
  const wrappers = new WeakMap<pg.PoolClient, BoundedClient & { leftMs: number; abandoned: boolean }>();
  const wrap = (client: pg.PoolClient) => {
    const wrapper = {
      leftMs: statementMs,
      /** A statement timed out on this connection and may still be running there. */
      abandoned: false,
      query(sqlOrCursor: unknown, parameters?: readonly unknown[]) {
        // A cursor (Kysely's streaming) is submitted as it is; a statement with the time left.
        if (typeof sqlOrCursor !== 'string') return client.query(sqlOrCursor as pg.Submittable);
        const config = { text: sqlOrCursor, values: parameters as unknown[], query_timeout: wrapper.leftMs };
        return client.query(config as pg.QueryConfig).catch((error: unknown) => {
          if (error instanceof Error && error.message === PG_READ_TIMEOUT) wrapper.abandoned = true;
          throw error;
        });
      },
      release: (destroy?: boolean) => client.release(destroy || wrapper.abandoned),
    };
    wrappers.set(client, wrapper);
    return wrapper;
  };
  const bounded = {
    options: pool.options,
    // Kysely opens a connection of this class to cancel a statement.
    Client: (pool as unknown as { Client: unknown }).Client,
    async connect(): Promise<BoundedClient> {
      const asked = performance.now();
      // A request that already waited in its admission has only what is left of its deadline.
      const deadline = followsRequestDeadline ? currentStoreDeadline() : undefined;
      const boundMs = deadline === undefined ? statementMs : Math.min(statementMs, deadline - asked);
      const client = boundMs < statementMs ? await connectWithin(pool, boundMs) : await pool.connect();
      const wrapper = wrappers.get(client) ?? wrap(client);
      wrapper.leftMs = Math.max(1, Math.round(boundMs - (performance.now() - asked)));
      return wrapper;
    },
    end: () => pool.end(),
  };
  // pg's query() is overloaded beyond what this wrapper spells out; it forwards the two forms Kysely uses.
  return bounded as unknown as PostgresPool;
}
