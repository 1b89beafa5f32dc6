/**
 * Shared quotas (REDIS_URL) with the real services: two instances on one PostgreSQL and one Redis
 * count exactly; a refusal spends no window; day counts survive a Redis restart; a Redis that is
 * down or hung gives a fast 503 in the variant's envelope, and the service recovers by itself.
 */
import { Redis } from 'ioredis';
import { windowAt } from '../../src/quota/counters.js';
import { expectErrorEnvelope } from '../support/envelopes.js';
import { ENGINES, postgresAvailable } from '../support/engines.js';
import { ownRedis, redisAvailable, SHARED_REDIS_URL, type OwnedRedis } from '../support/redis.js';
import { within } from '../support/wait.js';
import { bearer, midMinute, startTestService, TestClock, type TestService } from '../support/service.js';

const enabled = (await redisAvailable()) && (await postgresAvailable());
const maybe = enabled ? it : it.skip;
const postgres = ENGINES.find((e) => e.name === 'postgres')!;

const dayKey = (accountId: string, now: number) => `mgw:quota:{${accountId}}:marketData:d:${windowAt('day', now).index}`;

describe('two instances on one PostgreSQL and one Redis', () => {
  let target: Awaited<ReturnType<typeof postgres.setup>> | undefined;
  let one: TestService;
  let two: TestService;
  let redis: Redis;
  const now = midMinute();

  beforeAll(async () => {
    if (!enabled) return;
    target = await postgres.setup();
    const env = { ...target.env, REDIS_URL: SHARED_REDIS_URL };
    one = await startTestService({ env, clock: new TestClock(now) });
    two = await startTestService({ env, clock: new TestClock(now) });
    redis = new Redis(SHARED_REDIS_URL);
  });
  // Whatever beforeAll got to before a failure: each may be unset.
  afterAll(async () => {
    redis?.disconnect();
    await one?.close();
    await two?.close();
    await target?.teardown();
  });

  maybe('a free key sends 100 concurrent requests over both: exactly 10 are admitted in the minute, and refusals spend nothing', async () => {
    const { key, accountId } = await one.createKey('free');
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? two.a : one.a).get('/api/v1/markets?limit=1').set(bearer(key))));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(90);
    for (const r of answers.filter((a) => a.status === 429)) {
      expectErrorEnvelope(r.body, 429, 'rate_limit_exceeded', 'A');
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    }
    // The day window was spent by the 10 admitted requests only.
    expect(Number(await redis.get(dayKey(accountId, now)))).toBe(10);
    // And it reaches the database, for a Redis that restarts without persistence.
    await Promise.all([one.service.sharedQuota!.flush(), two.service.sharedQuota!.flush()]);
    expect(await one.service.store.quotaDays.get(accountId, 'marketData', windowAt('day', now).index)).toBe(10);
  });

  maybe('variant B counts its own 60 a minute across both instances', async () => {
    const { key } = await one.createKey('free', 'pro');
    const answers = await Promise.all(Array.from({ length: 80 }, (_, i) => (i % 2 ? two.b : one.b).get('/api/v1/alerts?limit=1').set(bearer(key))));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(60);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(20);
  });
});

maybe("a host clock behind Redis's does not expire a window early (TTLs are relative)", async () => {
  // Ten minutes behind: an absolute expiry at the window's end would already be past for Redis.
  const t = await startTestService({ env: { REDIS_URL: SHARED_REDIS_URL }, clock: new TestClock(midMinute() - 600_000) });
  try {
    const { key } = await t.createKey('free');
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await t.a.get('/api/v1/markets?limit=1').set(bearer(key))).status);
    expect(statuses).toEqual([...Array(10).fill(200), 429, 429]);
  } finally {
    await t.close();
  }
});

describe('when Redis fails (a server the test owns)', () => {
  let server: OwnedRedis;
  let target: Awaited<ReturnType<typeof postgres.setup>> | undefined;
  let t: TestService;

  beforeAll(async () => {
    if (!enabled) return;
    server = await ownRedis();
    target = await postgres.setup();
    t = await startTestService({ env: { ...target.env, REDIS_URL: server.url } });
  });
  afterAll(async () => {
    await t?.close();
    await server?.stop();
    await target?.teardown();
  });

  maybe('day counts survive a Redis restart without persistence', async () => {
    const { key, accountId } = await t.createKey('free');
    for (let i = 0; i < 4; i++) expect((await t.a.get('/api/v1/markets?limit=1').set(bearer(key))).status).toBe(200);
    await t.service.sharedQuota!.flush();
    await server.stop();
    await server.start();
    await within(8_000, async () => (await t.a.get('/api/v1/markets?limit=1').set(bearer(key))).status === 200);
    const probe = new Redis(server.url);
    try {
      expect(Number(await probe.get(dayKey(accountId, t.clock.now())))).toBe(5);
    } finally {
      probe.disconnect();
    }
  });

  maybe('down: every metered request is a fast 503 in its envelope; back: it recovers without a restart', async () => {
    const { key } = await t.createKey('pro', 'pro');
    await server.stop();
    for (const [agent, path, variant] of [
      [t.a, '/api/v1/markets', 'A'],
      [t.b, '/api/v1/markets', 'B'],
    ] as const) {
      const started = Date.now();
      const res = await agent.get(path).set(bearer(key));
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expectErrorEnvelope(res.body, 503, 'service_unavailable', variant);
    }
    expect((await t.a.get('/ready')).body.checks.redis).toBe('unreachable');
    const metrics = (await t.a.get('/metrics')).text;
    expect(metrics).toMatch(/^mgw_degraded_answers_total\{where="quota A"\} [1-9]/m);
    expect(metrics).toMatch(/^mgw_degraded_answers_total\{where="quota B"\} [1-9]/m);

    await server.start();
    const recoveredIn = await within(8_000, async () => (await t.a.get('/api/v1/markets').set(bearer(key))).status === 200);
    expect(recoveredIn).toBeLessThan(5_000);
    expect((await t.b.get('/api/v1/markets').set(bearer(key))).status).toBe(200);
  });

  maybe('hung (SIGSTOP): requests do not wait past the bound; resumed: it recovers', async () => {
    const { key } = await t.createKey('pro');
    expect((await t.a.get('/api/v1/markets').set(bearer(key))).status).toBe(200);
    server.pause();
    try {
      const started = Date.now();
      const answers = await Promise.all(Array.from({ length: 5 }, () => t.a.get('/api/v1/markets').set(bearer(key))));
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(answers.map((r) => r.status)).toEqual([503, 503, 503, 503, 503]);
    } finally {
      server.resume();
    }
    await within(8_000, async () => (await t.a.get('/api/v1/markets').set(bearer(key))).status === 200);
  });
});
