/**
 * PostgreSQL stopped, restarted, hung (SIGSTOP) and resumed under steady load, on a server the test
 * owns. Documented behaviour (docs/reliability.md): what the read model holds keeps being served;
 * what needs the database is a 503 in the variant's envelope; no request waits past the bound
 * (a second, less the time this process, which the service and the load share, was stalled while
 * the request was out); the service recovers by itself; nothing rejects unhandled.
 */
import { REQUEST_STATEMENT_MS } from '../../src/deadline/request-deadline.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { canOwnPostgres, ownPostgres, type OwnedPostgres } from '../support/postgres-server.js';
import { redisAvailable, SHARED_REDIS_URL } from '../support/redis.js';
import { within } from '../support/wait.js';
import { FAULT_PHASES, loadThroughFaults, serviceWait, steadyLoad, summarize, unexplainedFailures, unhandledRejections } from '../support/steady-load.js';

const enabled = canOwnPostgres() && (await redisAvailable());
const maybe = enabled ? it : it.skip;
/** The documented bound: a second, answer included (statements and connection waits are cut at 800 ms). */
const BOUND_MS = 1_000;
/** A request cut at its statement bound is answered within this much more (rendering its 503), stalls aside. */
const ANSWER_MARGIN_MS = 100;

let pg: OwnedPostgres;
let t: TestService;
const unhandled = unhandledRejections();

beforeAll(async () => {
  if (!enabled) return;
  unhandled.start();
  pg = await ownPostgres();
  // The scale-out set-up: quotas in Redis, the rest in PostgreSQL.
  // Quotas stay on, with variant B's minute window lifted so the load is not refused.
  const limits = JSON.stringify({ prediction: { pro: { perMinute: null } } });
  // Keys trusted for 1 s only, so every outage phase outlasts the cache: known keys must stay admitted anyway.
  t = await startTestService({ env: { DATABASE_URL: pg.url, REDIS_URL: SHARED_REDIS_URL, PLAN_LIMITS: limits, KEY_CACHE_TTL_MS: '1000' } });
}, 60_000);
afterAll(async () => {
  if (!enabled) return;
  unhandled?.stop();
  await t?.close();
  await pg?.destroy();
});

maybe(
  'stopped, restarted, hung and resumed under load: bounded waits, documented answers, recovery',
  async () => {
    const { key } = await t.createKey('enterprise', 'pro');
    const load = await loadThroughFaults(
      pg,
      [
        ['A markets (read model)', () => t.a.get('/api/v1/markets?limit=5').set(bearer(key))],
        ['B markets (read model)', () => t.b.get('/api/v1/markets').set(bearer(key))],
        ['A alerts (database)', () => t.a.get('/api/v1/alerts').set(bearer(key))],
        ['graphql viewer', () => t.a.post('/graphql').set(bearer(key)).send({ query: '{ viewer { accountId } }' })],
      ],
      async () => (await t.a.get('/api/v1/alerts').set(bearer(key))).status === 200,
    );
    const of = load.of;

    console.log(`PostgreSQL faults under load: ${JSON.stringify(summarize(load.answers, FAULT_PHASES))}`);

    // No request waited past the bound, in any phase, less the time this process was stalled meanwhile.
    expect(load.answers.filter((a) => serviceWait(a) > BOUND_MS)).toEqual([]);
    // Healthy and after recovery: everything answered.
    for (const p of ['healthy', 'after']) expect(unexplainedFailures(of(p), REQUEST_STATEMENT_MS)).toEqual([]);
    // Down or hung: the read model keeps answering; database paths are 503s, never anything else.
    for (const p of ['stopped', 'hung']) {
      expect(of(p).filter((a) => a.what.includes('read model') && a.status !== 200)).toEqual([]);
      expect(
        of(p)
          .filter((a) => a.what.includes('database'))
          .map((a) => a.status),
      ).toContain(503);
      expect(of(p).filter((a) => ![200, 503].includes(a.status))).toEqual([]);
    }
    expect(unhandled.seen).toEqual([]);
  },
  120_000,
);

maybe(
  "a known key re-read on a hung database: the request's statements have what the re-read left of the bound",
  async () => {
    const { key } = await t.createKey('enterprise', 'pro');
    // The key is known (cached) ...
    expect((await t.a.get('/api/v1/markets?limit=1').set(bearer(key))).status).toBe(200);
    // ... and due for its re-read, with no failed lookup the last 2 s to answer it at once.
    await new Promise((r) => setTimeout(r, 2_100));
    pg.hang();
    try {
      // Its account's alerts were never read: the request needs the database, after the re-read
      // waited 250 ms and let the key in on its cached entry. Each statement alone is cut at 800 ms.
      const load = steadyLoad([['A alerts (database)', () => t.a.get('/api/v1/alerts').set(bearer(key))]], () => 'hung', 1);
      await within(10_000, () => load.answers.length > 0, 20);
      await load.stop();
      const [first] = load.answers;
      expect(first).toMatchObject({ status: 503 });
      // Cut at the statement bound counted from its admission: 1 050 ms (less stalls) when the
      // statement had its whole bound after the re-read's 250 ms, which the test's own bound of a
      // second, minus this process's stalls, did not always catch.
      expect(serviceWait(first!)).toBeLessThan(REQUEST_STATEMENT_MS + ANSWER_MARGIN_MS);
    } finally {
      pg.resume();
    }
  },
  60_000,
);
