/**
 * Redis stopped, restarted, hung (SIGSTOP) and resumed under steady load, on a redis-server the
 * test owns, with every request metered there. Documented behaviour (docs/scale-out.md): a
 * metered request is a 503 in its envelope within the command bound, never admitted unmetered;
 * what needs no quota keeps answering; recovery without a restart; nothing rejects unhandled.
 */
import { REDIS_COMMAND_TIMEOUT_MS } from '../../src/quota/redis-client.js';
import { ENGINES, postgresAvailable } from '../support/engines.js';
import { ownRedis, redisAvailable, type OwnedRedis } from '../support/redis.js';
import { bearer, startTestService, TestClock, type TestService } from '../support/service.js';
import { within } from '../support/wait.js';
import { FAULT_PHASES, loadThroughFaults, serviceWait, summarize, unexplainedFailures, unhandledRejections } from '../support/steady-load.js';

const enabled = (await redisAvailable()) && (await postgresAvailable());
const maybe = enabled ? it : it.skip;
const BOUND_MS = 1_000;
const postgres = ENGINES.find((e) => e.name === 'postgres')!;

let server: OwnedRedis;
let target: Awaited<ReturnType<typeof postgres.setup>>;
let t: TestService;
const unhandled = unhandledRejections();

beforeAll(async () => {
  if (!enabled) return;
  unhandled.start();
  server = await ownRedis();
  target = await postgres.setup();
  // Limits out of reach but counted: every API request is metered in Redis.
  const counted = { perMinute: 1_000_000_000, perDay: 1_000_000_000 };
  const limits = JSON.stringify({ marketData: { pro: counted }, prediction: { pro: { perMinute: 1_000_000_000 } } });
  t = await startTestService({ env: { ...target.env, REDIS_URL: server.url, PLAN_LIMITS: limits } });
});
afterAll(async () => {
  if (!enabled) return;
  unhandled?.stop();
  await t?.close();
  await server?.stop();
  await target?.teardown();
});

maybe(
  'stopped, restarted, hung and resumed under load: bounded waits, 503 for metered requests, recovery',
  async () => {
    const { key } = await t.createKey('pro', 'pro');
    const load = await loadThroughFaults(
      { stop: () => server.stop(), start: () => server.start(), hang: () => server.pause(), resume: () => server.resume() },
      [
        ['A markets (metered)', () => t.a.get('/api/v1/markets?limit=5').set(bearer(key))],
        ['B alerts (metered)', () => t.b.get('/api/v1/alerts').set(bearer(key))],
        ['graphql markets (metered)', () => t.a.post('/graphql').set(bearer(key)).send({ query: '{ assetMarkets(limit: 2) { total } }' })],
        ['openapi (not metered)', () => t.b.get('/api/v1/openapi.json')],
      ],
      async () => (await t.a.get('/api/v1/markets?limit=1').set(bearer(key))).status === 200,
    );
    const of = load.of;
    console.log(`Redis faults under load: ${JSON.stringify(summarize(load.answers, FAULT_PHASES))}`);

    // Bounded: no answer waited past the bound, less the time this process was stalled meanwhile.
    expect(load.answers.filter((a) => serviceWait(a) > BOUND_MS)).toEqual([]);
    for (const p of ['healthy', 'after']) expect(unexplainedFailures(of(p), REDIS_COMMAND_TIMEOUT_MS)).toEqual([]);
    for (const p of ['stopped', 'hung']) {
      // Never admitted unmetered: a metered request is a 503 (or, on /graphql, its error), never a 200.
      expect(of(p).filter((a) => a.what.includes('(metered)') && a.status === 200)).toEqual([]);
      expect(
        of(p)
          .filter((a) => a.what.includes('(metered)'))
          .map((a) => a.status),
      ).toContain(503);
      expect(of(p).filter((a) => a.what.includes('not metered') && a.status !== 200)).toEqual([]);
    }
    expect(unhandled.seen).toEqual([]);
  },
  90_000,
);

maybe('/ready says redis unreachable (503) while Redis is hung, and ready again once it resumes', async () => {
  const ready = async () => (await t.a.get('/ready')).status;
  expect(await ready()).toBe(200);
  await server.pause();
  try {
    // The ping is bounded by the command time-out (300 ms): well within 2 s of the hang.
    await within(5_000, async () => (await ready()) === 503);
    expect((await t.a.get('/ready')).body.checks.redis).toBe('unreachable');
  } finally {
    await server.resume();
  }
  await within(10_000, async () => (await ready()) === 200);
});

maybe('requests answered 503 while Redis is hung spend nothing once it resumes: units spent equal answers admitted', async () => {
  // A day window only (the minute left out), so the count cannot roll over during the test.
  const hung = await startTestService({
    clock: new TestClock(Date.UTC(2026, 10, 24, 12, 0, 30)),
    env: { ...target.env, REDIS_URL: server.url, PLAN_LIMITS: JSON.stringify({ marketData: { pro: { perMinute: null, perDay: 1_000 } } }) },
  });
  try {
    const { key } = await hung.createKey('pro');
    const ask = () => hung.a.get('/api/v1/markets?limit=1').set(bearer(key));
    const remaining = async () => Number((await ask()).headers['x-ratelimit-remaining']);
    for (let i = 0; i < 3; i++) expect((await ask()).status).toBe(200);
    await server.pause();
    let refused = 0;
    try {
      for (let i = 0; i < 5; i++) {
        const res = await ask();
        expect(res.status).toBe(503);
        refused++;
      }
    } finally {
      await server.resume();
    }
    expect(refused).toBe(5);
    // Once Redis has run what was queued (the five consumes and their refunds), only admitted answers count:
    // three before, and this one.
    await within(10_000, async () => (await hung.a.get('/ready')).status === 200);
    expect(await remaining()).toBe(1_000 - 4);
  } finally {
    await hung.close();
  }
});
