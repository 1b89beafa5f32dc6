/**
 * What the first traces left out, seen at a loopback OTLP/HTTP receiver: each Redis command a
 * client span under the request that sent it (its name and server, never a key or a value), a
 * pipeline or transaction one span naming its commands; and a webhook delivery linked to the span
 * that wrote its event, on its first attempt and on its retry, when another instance delivers it
 * (one on PostgreSQL, the `http` role taking the request and the `worker` role delivering). The
 * same spans and links arrive over http/json (one service on SQLite).
 */
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { createRedisClient, waitForRedis } from '../../src/quota/redis-client.js';
import { inSpan } from '../../src/telemetry/tracing.js';
import { RETRY_DELAYS_MS } from '../../src/webhooks/retry-schedule.js';
import { createPgSchema, postgresAvailable } from '../support/engines.js';
import { graphqlPost } from '../support/graphql-call.js';
import { ancestry, type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../support/otlp-receiver.js';
import { redisAvailable, SHARED_REDIS_URL } from '../support/redis.js';
import { bearer, closeAll, realSecond, startTestService, TestClock, type TestService } from '../support/service.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const services = (await postgresAvailable()) && (await redisAvailable());
const maybe = services ? it : it.skip;

const TRACE_ID = '5b8aa5a2d2c872e8321cf37308d69df2';
const CALLER_SPAN = '051581bf3cb55c13';
const withTrace = <R extends { set(name: string, value: string): R }>(req: R) => req.set('traceparent', `00-${TRACE_ID}-${CALLER_SPAN}-01`);
/** Past the first retry's delay, whatever its jitter (+/-10 %). */
const PAST_FIRST_RETRY_MS = Math.ceil(RETRY_DELAYS_MS[0] * 1.1) + 1;
const WEBHOOK_ENV = { WEBHOOK_ALLOW_HTTP: '1', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128', WEBHOOK_POLL_MS: '100' };

/**
 * Runs `work` in a span named `name` with a Redis client made the service's way (traced) and
 * connected; the client is closed after, and `keys` deleted, whatever happens.
 */
async function inSpanWithRedis(name: string, keys: string[], work: (redis: Redis) => Promise<unknown>): Promise<void> {
  const logger = pino({ enabled: false });
  const connected = async () => {
    // The services in this process share its event loop: their start-up work must not time a command out.
    const redis = await createRedisClient(SHARED_REDIS_URL, logger, 10_000);
    expect(await waitForRedis(redis, 5_000, logger)).toEqual({});
    return redis;
  };
  const redis = await connected();
  try {
    await inSpan(
      name,
      () => ({}),
      () => work(redis),
    );
  } finally {
    redis.disconnect();
    const cleaner = await connected();
    await cleaner.del(...keys);
    cleaner.disconnect();
  }
}

const DELIVERY_WAIT_MS = 30_000;
const isRedis = (s: ReceivedSpan) => s.attributes['db.system.name'] === 'redis';
const deliveryAttempt = (n: number) => (s: ReceivedSpan) => s.name === 'webhook delivery' && s.attributes['mgw.webhook.attempt'] === n;

/** An endpoint at `hooks` made and a test event sent through `t`'s /graphql, the send with the caller's traceparent. */
async function sendTestEvent(t: TestService, hooks: WebhookReceiver, path: string): Promise<{ key: string; secret: string }> {
  const { key } = await t.createKey('enterprise');
  const created = await graphqlPost(t.a, key, 'mutation($url: String!) { createWebhookEndpoint(input: { url: $url }) { secret endpoint { id } } }', {
    url: hooks.url(path),
  });
  const made = created.body.data.createWebhookEndpoint as { secret: string; endpoint: { id: string } };
  const sent = await withTrace(graphqlPost(t.a, key, 'mutation SendTest($id: ID!) { sendTestWebhook(id: $id) { id } }', { id: made.endpoint.id }));
  expect(sent.body.errors).toBeUndefined();
  return { key, secret: made.secret };
}

/**
 * The first attempt (answered 500) and the retry (200), each the root of a trace of its own, each
 * linked to a span of the request that wrote the event: one under that request's server span.
 */
async function expectDeliveriesLinked(receiver: OtlpReceiver, hooks: WebhookReceiver, clock: TestClock, path: string): Promise<void> {
  // A worker's poll, an attempt and the export: a few seconds on a quiet machine, many more on a busy one.
  await receiver.until(() => hooks.received.some((r) => r.path === path), DELIVERY_WAIT_MS);
  clock.advance(PAST_FIRST_RETRY_MS);
  await receiver.until(() => hooks.received.filter((r) => r.path === path).length === 2, DELIVERY_WAIT_MS);
  const spans = await receiver.until((all) => all.some(deliveryAttempt(1)) && all.some(deliveryAttempt(2)), DELIVERY_WAIT_MS);
  const server = spans.find((s) => s.traceId === TRACE_ID && s.attributes['http.route'] === '/graphql')!;
  expect(server.parentSpanId).toBe(CALLER_SPAN);
  for (const attempt of [1, 2]) {
    const delivery = spans.find(deliveryAttempt(attempt))!;
    expect(delivery.parentSpanId).toBe('');
    expect(delivery.traceId).not.toBe(TRACE_ID);
    const causes = delivery.links.filter((l) => l.traceId === TRACE_ID);
    expect(causes.length).toBeGreaterThan(0);
    for (const link of causes) {
      const cause = spans.find((s) => s.spanId === link.spanId)!;
      expect(ancestry(spans, cause).map((s) => s.spanId)).toContain(server.spanId);
    }
  }
}

describe('over http/protobuf, two instances on PostgreSQL and Redis', () => {
  let receiver: OtlpReceiver;
  let hooks: WebhookReceiver;
  let api: TestService;
  let worker: TestService;
  let drop: (() => Promise<void>) | undefined;
  const clock = new TestClock(realSecond());

  beforeAll(async () => {
    if (!services) return;
    receiver = await startOtlpReceiver();
    hooks = await startWebhookReceiver([{ status: 500 }, { status: 200 }]);
    const schema = await createPgSchema();
    drop = schema.drop;
    const env = {
      ...WEBHOOK_ENV,
      DATABASE_URL: schema.url,
      REDIS_URL: SHARED_REDIS_URL,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: '50',
    };
    api = await startTestService({ env, clock, role: 'http' });
    worker = await startTestService({ env, clock, role: 'worker' });
  }, 60_000);
  afterAll(async () => {
    await closeAll(api, worker, receiver, hooks);
    await drop?.();
  });

  maybe("a REST GET's quota commands are Redis client spans under its server span: the command and the server, no key nor argument", async () => {
    const { key, keyId, accountId } = await api.createKey('pro');
    const res = await withTrace(api.a.get('/api/v1/markets').set(bearer(key)));
    expect(res.status).toBe(200);

    const isServer = (s: ReceivedSpan) => s.traceId === TRACE_ID && s.attributes['http.route'] === '/api/v1/markets';
    const spans = await receiver.until((all) => all.some(isServer) && all.some((s) => s.traceId === TRACE_ID && isRedis(s)));
    const server = spans.find(isServer)!;
    const commands = spans.filter((s) => s.traceId === TRACE_ID && isRedis(s));
    const port = Number(new URL(SHARED_REDIS_URL).port);
    for (const command of commands) {
      expect(command.kind).toBe(3);
      expect(command.attributes).toMatchObject({ 'db.system': 'redis', 'db.system.name': 'redis', 'server.address': '127.0.0.1', 'server.port': port });
      expect(command.name).toBe(command.attributes['db.operation.name']);
      expect(ancestry(spans, command).at(-1)!.spanId).toBe(server.spanId);
    }
    // The quota's script, run by its sha (or sent whole, the first time on a connection).
    expect(commands.map((c) => c.name)).toEqual(expect.arrayContaining([expect.stringMatching(/^EVAL(SHA)?$/)]));
    const values = commands.flatMap((c) => Object.values(c.attributes).map(String));
    for (const hidden of [key, keyId, accountId, 'mgw:quota']) expect(values.join(' ')).not.toContain(hidden);
  });

  maybe('a pipeline and a transaction are one span each, naming their commands, never their keys or values', async () => {
    const key = `mgw:test:tracing:${Date.now()}`;
    await inSpanWithRedis('redis batches', [key, `${key}:n`], async (redis) => {
      await redis.pipeline().get(key).set(key, 'value-never-traced', 'PX', 60_000).get(key).exec();
      await redis.multi().incr(`${key}:n`).pexpire(`${key}:n`, 60_000).exec();
    });
    const spans = await receiver.until((all) => ['PIPELINE', 'MULTI'].every((name) => all.some((s) => s.name === name)));
    const root = spans.find((s) => s.name === 'redis batches')!;
    const pipeline = spans.find((s) => s.name === 'PIPELINE')!;
    const multi = spans.find((s) => s.name === 'MULTI')!;
    expect(pipeline.attributes).toMatchObject({ 'db.operation.name': 'PIPELINE', 'db.operation.batch.size': 3, 'mgw.redis.commands': 'GET SET' });
    expect(multi.attributes).toMatchObject({ 'db.operation.name': 'MULTI', 'db.operation.batch.size': 2, 'mgw.redis.commands': 'INCR PEXPIRE' });
    // One span each, straight under the span that sent them; none for their commands.
    const mine = spans.filter((s) => s.traceId === root.traceId && s.spanId !== root.spanId);
    expect(mine.map((s) => s.name).sort()).toEqual(['MULTI', 'PIPELINE']);
    expect(mine.every((s) => s.parentSpanId === root.spanId && s.kind === 3)).toBe(true);
    const values = mine.flatMap((s) => Object.values(s.attributes).map(String)).join(' ');
    expect(values).not.toContain(key);
    expect(values).not.toContain('value-never-traced');
  });

  maybe("a failed command's span says its class, never the message: the server's error prefix, or no connection", async () => {
    const key = `mgw:test:tracing-failed:${Date.now()}`;
    await inSpanWithRedis('redis failures', [key], async (redis) => {
      await redis.set(key, 'not-a-number', 'PX', 60_000);
      await expect(redis.incr(key)).rejects.toThrow(/not an integer/);
      redis.disconnect();
      await expect(redis.get(key)).rejects.toThrow();
    });
    const spans = await receiver.until((all) => all.some((s) => s.name === 'redis failures'));
    const root = spans.find((s) => s.name === 'redis failures')!;
    const mine = spans.filter((s) => s.parentSpanId === root.spanId);
    expect(mine.map((s) => [s.name, s.attributes['error.type']])).toEqual([
      ['SET', undefined],
      ['INCR', 'ERR'],
      ['GET', 'not_connected'],
    ]);
    expect(JSON.stringify(mine)).not.toContain('not an integer');
  });

  maybe(
    'a test event sent by a request on one instance: its delivery by the worker instance, and the retry, link to that request',
    async () => {
      await sendTestEvent(api, hooks, '/linked');
      await expectDeliveriesLinked(receiver, hooks, clock, '/linked');
    },
    120_000,
  );
});

describe('over http/json, one instance on SQLite', () => {
  let receiver: OtlpReceiver;
  let hooks: WebhookReceiver;
  let t: TestService;
  const clock = new TestClock(realSecond());

  beforeAll(async () => {
    if (!services) return;
    receiver = await startOtlpReceiver();
    hooks = await startWebhookReceiver([{ status: 500 }, { status: 200 }]);
    t = await startTestService({
      clock,
      env: {
        ...WEBHOOK_ENV,
        REDIS_URL: SHARED_REDIS_URL,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '50',
      },
    });
  }, 60_000);
  afterAll(() => closeAll(t, receiver, hooks));

  maybe(
    'Redis command spans and the delivery links arrive in JSON too',
    async () => {
      await sendTestEvent(t, hooks, '/json');
      await expectDeliveriesLinked(receiver, hooks, clock, '/json');
      const { key } = await t.createKey('pro');
      await withTrace(t.a.get('/api/v1/markets').set(bearer(key)));
      const spans = await receiver.until((all) => all.some((s) => s.traceId === TRACE_ID && isRedis(s) && s.attributes['db.operation.name'] !== undefined));
      expect(receiver.contentTypes.every((type) => type.startsWith('application/json'))).toBe(true);
      expect(spans.filter(isRedis).every((s) => s.kind === 3 && s.attributes['server.port'] === Number(new URL(SHARED_REDIS_URL).port))).toBe(true);
    },
    120_000,
  );
});
