/**
 * On PostgreSQL a request's wait for a connection and its statement share one bound (800 ms): a
 * statement that waited for a connection gets only what is left, so a hung or saturated database
 * is answered within the bound instead of the wait plus a whole statement's bound; a request whose
 * admission already waited has only what is left of its deadline, which the jobs' pool ignores.
 * And the pool's connections end with the store, whichever way they were used.
 */
import { sql } from 'kysely';
import pino from 'pino';
import { createDegradedAnswers } from '../../src/edge/degraded.js';
import { openStore, type StoreConnection } from '../../src/store/database.js';
import { withinStoreDeadline } from '../../src/deadline/request-deadline.js';
import { createPgSchema, postgresAvailable, tempDataDir } from '../support/engines.js';

const enabled = await postgresAvailable();
const maybe = enabled ? it : it.skip;

let schema: Awaited<ReturnType<typeof createPgSchema>>;
let store: StoreConnection | undefined;
beforeAll(async () => {
  if (enabled) schema = await createPgSchema();
});
// A store per test, of one connection, so a statement must wait for the one before it.
beforeEach(async () => {
  if (enabled) store = await openStore({ databaseUrl: schema.url, dataDir: tempDataDir(), poolMax: 1 });
});
afterEach(async () => {
  await store?.close();
});
afterAll(async () => {
  await schema?.drop();
});

const sleep = (seconds: number) => sql`select pg_sleep(${seconds})`.execute(store!.db);

maybe('a statement that did not wait has the whole bound', async () => {
  await expect(sleep(0.5)).resolves.toBeDefined();
});

maybe('a statement longer than the bound is cut', async () => {
  await expect(sleep(1.2)).rejects.toThrow(/timeout/i);
});

maybe('a statement that waited for the only connection is cut when the bound is spent, not a bound later', async () => {
  // The connection is made first: the holder's bound then covers its sleep alone, not also the
  // connection's setup, which on a busy machine took it past its 800 ms (CI, once).
  await sql`select 1`.execute(store!.db);
  const started = performance.now();
  const holder = sleep(0.5).then(() => performance.now() - started); // holds the connection for 500 ms, within its own bound
  const waiter = sleep(5).then(
    () => 'answered',
    (error: Error) => error.message,
  );
  const heldMs = await holder;
  const outcome = await waiter;
  const waitedMs = performance.now() - started;
  expect(outcome).toMatch(/timeout/i);
  // Bounded per part, it would take the wait for the holder plus a whole 800 ms statement.
  expect(waitedMs).toBeLessThan(heldMs + 800);
});

maybe("within a request's deadline, a statement has what is left of it, not a whole bound", async () => {
  await sql`select 1`.execute(store!.db);
  // 0.5 s passes alone (above); a request whose admission already spent all but 200 ms of its bound is cut.
  const cut = withinStoreDeadline(performance.now() + 200, () => sleep(0.5));
  await expect(cut).rejects.toThrow(/timeout/i);
  // The deadline stays with that request: the next statement, outside it, has its whole bound. The
  // cut statement's connection was closed: a new one is made first, so the bound covers the sleep
  // alone, not also a connection's setup on a busy machine (as above).
  await sql`select 1`.execute(store!.db);
  await expect(sleep(0.5)).resolves.toBeDefined();
});

maybe('a deadline already past refuses the statement at once, as a connection time-out, and the store says it is unavailable', async () => {
  const refusal = await withinStoreDeadline(performance.now() - 1, () => sql`select 1`.execute(store!.db)).catch((e: unknown) => e);
  expect(refusal).toBeInstanceOf(Error);
  expect(createDegradedAnswers(pino({ level: 'silent' })).answerFor('rest', refusal)?.status).toBe(503);
});

maybe("a wait for a connection is cut at the request's deadline; the connection that comes later serves the next statement", async () => {
  await sql`select 1`.execute(store!.db);
  const order: string[] = [];
  // The only connection is held for 700 ms; a request with 100 ms left does not wait for it.
  const holder = sleep(0.7).then(() => order.push('holder done'));
  const waiter = withinStoreDeadline(performance.now() + 100, () => sql`select 1`.execute(store!.db)).catch((e: Error) => {
    order.push(`waiter: ${e.message}`);
  });
  await Promise.all([holder, waiter]);
  expect(order).toEqual(['waiter: timeout exceeded when trying to connect', 'holder done']);
  // The connection the cut wait would have had went back to the pool, not astray.
  await expect(sql`select 1 as one`.execute(store!.db)).resolves.toMatchObject({ rows: [{ one: 1 }] });
  expect(store!.pgPool!.totalCount).toBe(1);
  expect(store!.pgPool!.waitingCount).toBe(0);
});

maybe("a pool with a bound of its own (the jobs') ignores a request's deadline: work a request woke is not cut by it", async () => {
  const jobs = await openStore({ databaseUrl: schema.url, dataDir: tempDataDir(), queryTimeoutMs: 8_000, poolMax: 1, migrate: false });
  try {
    // On the requests' pool this deadline refuses at once (above); a delivery's write must still be made.
    const written = withinStoreDeadline(performance.now() - 1, () => sql`select pg_sleep(0.2), 1 as one`.execute(jobs.db));
    await expect(written).resolves.toMatchObject({ rows: [{ one: 1 }] });
  } finally {
    await jobs.close();
  }
});

maybe('a statement cut by its bound does not hold the connection for the next one', async () => {
  // pg_sleep(5) goes on running on the server after the cut: on that connection, the next statement
  // would wait behind it and be cut in turn.
  await expect(sleep(5)).rejects.toThrow(/timeout/i);
  await expect(sql`select 1 as one`.execute(store!.db)).resolves.toMatchObject({ rows: [{ one: 1 }] });
});

maybe('closing the store closes the connections its raw pool made, when Kysely ran nothing on it', async () => {
  // The day quotas' counters use the raw pool; Kysely ends the pool only if it ran a query itself.
  await store!.pgPool!.query('select 1');
  expect(store!.pgPool!.totalCount).toBe(1);
  await store!.close();
  expect(store!.pgPool!.totalCount).toBe(0);
  store = undefined;
});
