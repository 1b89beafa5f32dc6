/**
 * PostgreSQL unreachable, hung and back, through a TCP proxy the test owns (the shared server is
 * never touched), with quotas in Redis as in the scale-out set-up. Documented behaviour: what the read model holds (markets, briefs, known keys)
 * keeps being served; anything that needs the database answers 503 in the variant's envelope
 * within about a second; the jobs lease is given up and retaken; usage counts wait in memory; all of it recovers by itself.
 */
import { createPgSchema, PG_ADMIN_URL, postgresAvailable } from '../support/engines.js';
import { expectErrorEnvelope } from '../support/envelopes.js';
import { within } from '../support/wait.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { redisAvailable, SHARED_REDIS_URL } from '../support/redis.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

const enabled = (await postgresAvailable()) && (await redisAvailable());
const maybe = enabled ? it : it.skip;

let proxy: TcpProxy;
let schema: Awaited<ReturnType<typeof createPgSchema>>;
let t: TestService;
/**
 * Every test's keys, written before any outage: a write straight after a restore would meet the
 * request pool's 800 ms statement bound on a fresh connection, which a loaded machine can outlast.
 * The service has not read them, so each is still unseen until its test uses it.
 */
let keys: Record<'known' | 'unseen' | 'hung' | 'counted', { key: string; keyId: string }>;

beforeAll(async () => {
  if (!enabled) return;
  schema = await createPgSchema();
  proxy = await startTcpProxy(Number(new URL(PG_ADMIN_URL).port || 5432));
  const url = new URL(schema.url);
  url.port = String(proxy.port);
  // The scale-out set-up: quotas in Redis, so metering a known key needs no database round trip.
  t = await startTestService({ env: { DATABASE_URL: url.toString(), REDIS_URL: SHARED_REDIS_URL } });
  keys = {
    known: await t.createKey('pro', 'pro'),
    unseen: await t.createKey('pro', 'pro'),
    hung: await t.createKey('pro'),
    counted: await t.createKey('pro', 'pro'),
  };
});
afterAll(async () => {
  if (!enabled) return;
  proxy?.restore();
  await t?.close();
  await proxy?.close();
  await schema?.drop();
});

maybe('unreachable, then back: memory keeps answering, the database paths answer 503 fast, and everything recovers', async () => {
  const { known, unseen } = keys;
  expect((await t.a.get('/api/v1/markets').set(bearer(known.key))).status).toBe(200);
  expect(t.service.runsJobs()).toBe(true);

  proxy.refuse();
  // From the read model, with a key already known: still answered.
  expect((await t.a.get('/api/v1/markets').set(bearer(known.key))).status).toBe(200);
  expect((await t.b.get('/api/v1/markets').set(bearer(known.key))).status).toBe(200);
  // A key never seen needs the database: 503, fast, in each envelope.
  for (const [agent, variant] of [
    [t.a, 'A'],
    [t.b, 'B'],
  ] as const) {
    const started = Date.now();
    const res = await agent.get('/api/v1/markets').set(bearer(unseen.key));
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expectErrorEnvelope(res.body, 503, 'service_unavailable', variant);
  }
  // Price alerts live in the database only.
  const alerts = await t.a.get('/api/v1/alerts').set(bearer(known.key));
  expect(alerts.status).toBe(503);
  const metrics = await t.service.metrics.metrics();
  expect(metrics).toMatch(/^mgw_degraded_answers_total\{where="rest"\} [1-9]/m); // the key lookups and the alerts read
  // The jobs lease goes with the connection.
  await within(5_000, () => !t.service.runsJobs());

  proxy.restore();
  await within(5_000, async () => (await t.a.get('/api/v1/markets').set(bearer(unseen.key))).status === 200);
  expect((await t.a.get('/api/v1/alerts').set(bearer(known.key))).status).toBe(200);
  await within(5_000, () => t.service.runsJobs());
});

maybe('hung: no request waits much past a second; resumed: it recovers', async () => {
  const { key } = keys.hung;
  proxy.hang();
  try {
    const started = Date.now();
    const res = await t.a.get('/api/v1/markets').set(bearer(key));
    expect(Date.now() - started).toBeLessThan(2_500);
    expect(res.status).toBe(503);
  } finally {
    proxy.restore();
  }
  await within(5_000, async () => (await t.a.get('/api/v1/markets').set(bearer(key))).status === 200);
});

maybe('an outage delays the usage records and loses none of what was counted', async () => {
  const { key, keyId } = keys.counted;
  const recorded = async () => (await t.service.store.usage.report({ sinceDay: '2000-01-01', keyId }, 'key')).reduce((n, g) => n + g.requests, 0);
  for (let i = 0; i < 3; i++) expect((await t.a.get('/api/v1/markets').set(bearer(key))).status).toBe(200);
  await t.service.usage!.flush();
  expect(await recorded()).toBe(3);
  proxy.refuse();
  try {
    // Answered from memory with quotas in Redis, so counted; the writes fail and keep the counts.
    for (let i = 0; i < 4; i++) expect((await t.a.get('/api/v1/markets').set(bearer(key))).status).toBe(200);
    await t.service.usage!.flush();
  } finally {
    proxy.restore();
  }
  // The first reads after the restore open fresh connections under the same bound: one may time out.
  await within(10_000, async () => (await recorded().catch(() => undefined)) === 7);
});

maybe("slow to connect: an operator's command waits for the server where a request would have given up", async () => {
  const url = new URL(schema.url);
  url.port = String(proxy.port);
  proxy.slow(1_500); // past a request's second to connect, within the operator's 10 s
  try {
    const made = await runCliInProcess(['keys', 'create', '--plan', 'pro', '--name', 'slow server'], { DATABASE_URL: url.toString(), DATA_DIR: t.dataDir });
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/mgw_/);
  } finally {
    proxy.restore();
  }
});
