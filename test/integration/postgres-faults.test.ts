/**
 * PostgreSQL stopped, restarted, hung (SIGSTOP) and resumed under steady load, on a server the test
 * owns. Documented behaviour (docs/reliability.md): what the read model holds keeps being served;
 * what needs the database is a 503 in the variant's envelope; no request waits past the bound
 * (a second, less the time this process, which the service and the load share, was stalled while
 * the request was out); the service recovers by itself; nothing rejects unhandled.
 */
import { REQUEST_STATEMENT_MS } from '../../src/store/database.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { canOwnPostgres, ownPostgres, type OwnedPostgres } from '../support/postgres-server.js';
import { redisAvailable, SHARED_REDIS_URL } from '../support/redis.js';
import { FAULT_PHASES, loadThroughFaults, serviceWait, summarize, unexplainedFailures, unhandledRejections } from '../support/steady-load.js';

const enabled = canOwnPostgres() && (await redisAvailable());
const maybe = enabled ? it : it.skip;
/** The documented bound: a second, answer included (statements and connection waits are cut at 800 ms). */
const BOUND_MS = 1_000;

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
