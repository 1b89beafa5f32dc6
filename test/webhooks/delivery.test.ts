/**
 * The delivery worker against a loopback receiver, on each store engine: events written with the
 * alert's transition, signed deliveries verified with standardwebhooks as a receiver would, and the
 * documented attempts for receivers that fail, hang, answer 410 or 429, asserted on an injected clock.
 */
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { createAlertEvaluator } from '../../src/alerts/alert-evaluator.js';
import { createBriefService } from '../../src/analytics/brief-service.js';
import type { PriceAlert } from '../../src/domain/account.js';
import type { Quote } from '../../src/domain/market.js';
import type { WebhookDelivery } from '../../src/domain/webhooks.js';
import type { WebhookRepository } from '../../src/store/webhooks.js';
import { currentStoreDeadline, withinStoreDeadline } from '../../src/deadline/request-deadline.js';
import { createConnectAgents, type DestinationPolicy } from '../../src/webhooks/destination.js';
import { createDeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import { registerEndpoint, rotateSecret } from '../../src/webhooks/endpoints.js';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from '../../src/webhooks/retry-schedule.js';
import { signDelivery } from '../../src/webhooks/signing.js';
import { issueKey } from '../support/keys.js';
import { realSecond, TestClock } from '../support/service.js';
import { describeOnEachEngine } from '../support/store-suite.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { within } from '../support/wait.js';
import { OPERATOR_SCOPE } from '../../src/domain/scope.js';

const LOOPBACK: DestinationPolicy = { allowHttp: true, allowedNetworks: ['127.0.0.0/8'] };
/** The injected clock starts at the real second: the verifier checks timestamps against its own clock. */
const T0 = realSecond();
const silent = pino({ level: 'silent' });
const RETENTION_MS = 30 * 86_400_000;

describeOnEachEngine('webhook delivery', (suite) => {
  const { maybe } = suite;
  let clock: TestClock;
  let receiver: WebhookReceiver;
  let agents: ReturnType<typeof createConnectAgents>;
  const workers: ReturnType<typeof createDeliveryWorker>[] = [];

  beforeAll(async () => {
    if (!suite.enabled) return;
    await suite.store.markets.upsertMarkets([{ symbol: 'BTC/USD', name: 'Bitcoin', type: 'crypto', source: 'demo', staleAfterMs: 60_000, halted: false }]);
  });
  beforeEach(async () => {
    clock = new TestClock(T0);
    receiver = await startWebhookReceiver();
    agents = createConnectAgents(LOOPBACK);
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    agents.destroy();
    await receiver.close();
  });

  function startWorker(options: { timeoutMs?: number; perEndpoint?: number; policy?: DestinationPolicy; logger?: pino.Logger; repo?: WebhookRepository } = {}) {
    const worker = createDeliveryWorker({
      repo: options.repo ?? suite.store.webhooks,
      agents: options.policy ? createConnectAgents(options.policy) : agents,
      timeoutMs: options.timeoutMs ?? 30_000,
      concurrency: 16,
      perEndpoint: options.perEndpoint ?? 4,
      pollMs: 3_600_000,
      retentionMs: RETENTION_MS,
      userAgent: 'market-gateway-test',
      now: clock.now,
      // The middle of the jitter: each delay is exactly the documented one.
      random: () => 0.5,
      logger: options.logger ?? silent,
    });
    worker.start();
    workers.push(worker);
    return worker;
  }

  /** An Enterprise account with an alert above `threshold` and an endpoint at the receiver. */
  async function enterpriseWithEndpoint(path = '/hook') {
    const account = await issueKey(suite.store, { plan: 'enterprise', now: clock.now() });
    const { endpoint, secret } = await registerEndpoint(
      { repo: suite.store.webhooks, activity: suite.store.activity, policy: LOOPBACK },
      { id: account.accountId, name: 'acme', marketDataPlan: 'enterprise', predictionPlan: 'none' },
      { url: receiver.url(path) },
      clock.now(),
    );
    return { account, endpoint, secret };
  }

  async function triggerAlert(accountId: string): Promise<PriceAlert> {
    const alert = await suite.store.priceAlerts.create({
      accountId,
      symbol: 'BTC/USD',
      kind: 'price_above',
      threshold: 100,
      signal: null,
      expiresAt: null,
      now: clock.now(),
    });
    const evaluator = createAlertEvaluator({ alerts: suite.store.priceAlerts, briefs: createBriefService(suite.store.markets), logger: silent });
    const quote: Quote = { symbol: 'BTC/USD', price: 150.12, change24h: 1.234, volume24h: 10, observedAt: clock.now() };
    await evaluator.evaluate([quote], clock.now());
    return alert;
  }

  const deliveriesOf = async (endpointId: string): Promise<WebhookDelivery[]> => suite.store.webhooks.listDeliveries(endpointId, 100, OPERATOR_SCOPE);

  maybe('an alert trigger is one delivery, signed so that standardwebhooks verifies it', async () => {
    const { account, endpoint, secret } = await enterpriseWithEndpoint();
    const worker = startWorker();
    const alert = await triggerAlert(account.accountId);
    await worker.drain();

    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    const payload = new Webhook(secret).verify(request!.body, request!.headers) as Record<string, unknown>;
    expect(payload).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'price_alert.triggered',
      created_at: new Date(T0).toISOString(),
      data: {
        alert: {
          id: alert.id,
          status: 'triggered',
          triggered_at: new Date(T0).toISOString(),
          symbol: 'BTC/USD',
          kind: 'price_above',
          threshold: 100,
          signal: null,
          created_at: new Date(T0).toISOString(),
          expires_at: null,
        },
        quote: { symbol: 'BTC/USD', price: 150.12, change_24h: 1.23, observed_at: new Date(T0).toISOString() },
      },
    });
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({
      id: request!.headers['webhook-id'],
      status: 'delivered',
      attempts: 1,
      lastStatus: 200,
      eventType: 'price_alert.triggered',
    });
    // A second evaluation finds nothing active: no second event.
    await triggerAlert(account.accountId);
    await worker.drain();
    expect(await deliveriesOf(endpoint.id)).toHaveLength(2);
  });

  maybe('a tampered body, another secret or an old timestamp is refused by the verifier', async () => {
    const { account, secret } = await enterpriseWithEndpoint();
    const worker = startWorker();
    await triggerAlert(account.accountId);
    await worker.drain();
    const [request] = receiver.received;
    expect(() => new Webhook(secret).verify(request!.body.replace('150.12', '1.12'), request!.headers)).toThrow();
    expect(() => new Webhook(`whsec_${Buffer.alloc(24, 1).toString('base64')}`).verify(request!.body, request!.headers)).toThrow();
    // Signed ten minutes ago (the signature is right for that time): refused for its age, not its signature.
    const tenMinutesAgo = Date.now() - 600_000;
    const stale = signDelivery({ id: request!.headers['webhook-id']!, body: request!.body, at: tenMinutesAgo, secrets: [secret] });
    expect(() => new Webhook(secret).verify(request!.body, { ...stale })).toThrow(/timestamp too old/);
  });

  maybe('500 then 200: retried after 5 s with the same webhook-id, then delivered', async () => {
    const { account, endpoint, secret } = await enterpriseWithEndpoint();
    receiver.answer([{ status: 500, body: 'x'.repeat(5_000) }, { status: 200 }]);
    const worker = startWorker();
    await triggerAlert(account.accountId);
    await worker.drain();

    let [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, lastStatus: 500, nextAttemptAt: T0 + RETRY_DELAYS_MS[0] });
    expect(delivery!.lastResponse).toHaveLength(1_024);
    clock.advance(RETRY_DELAYS_MS[0] - 1);
    await worker.drain();
    expect(receiver.received).toHaveLength(1);
    clock.advance(1);
    await worker.drain();
    [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 2, lastStatus: 200 });
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([delivery!.id, delivery!.id]);
    expect(receiver.received.map((r) => Number(r.headers['webhook-timestamp']))).toEqual([T0 / 1000, T0 / 1000 + 5]);
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    // Each attempt verifies at its own time.
    for (const r of receiver.received) expect(() => new Webhook(secret).verify(r.body, r.headers)).not.toThrow();
  });

  maybe('a new event for an endpoint waiting on a retry is sent at once, the retry when it is due', async () => {
    const { account, endpoint } = await enterpriseWithEndpoint();
    receiver.answer([{ status: 500 }, { status: 200 }]);
    const worker = startWorker();
    await triggerAlert(account.accountId);
    await worker.drain();
    clock.advance(1_000);
    await triggerAlert(account.accountId);
    await worker.drain();
    const [second, first] = await deliveriesOf(endpoint.id);
    expect(second).toMatchObject({ status: 'delivered', attempts: 1, lastAttemptAt: T0 + 1_000 });
    expect(first).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: T0 + 5_000 });
    clock.advance(4_000);
    await worker.drain();
    expect((await deliveriesOf(endpoint.id))[1]).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  maybe('logs say which delivery failed and where, without the secret, the signature or the URL path and query', async () => {
    const { account, endpoint, secret } = await enterpriseWithEndpoint('/hook/tok_s3cr3tpath?token=q5ecret');
    receiver.answer([{ status: 500 }]);
    const lines: string[] = [];
    const worker = startWorker({ logger: pino({ level: 'trace' }, { write: (line: string) => lines.push(line) }) });
    await triggerAlert(account.accountId);
    await worker.drain();
    const logged = lines.join('\n');
    expect(logged).toContain('webhook attempt failed; will retry');
    expect(logged).toContain(endpoint.id);
    expect(logged).toContain(receiver.url('').replace(/\/$/, ''));
    const signature = receiver.received[0]!.headers['webhook-signature']!;
    for (const hidden of [secret, secret.slice('whsec_'.length), signature.split(',')[1]!, 'tok_s3cr3tpath', 'q5ecret']) expect(logged).not.toContain(hidden);
  });

  maybe('deliveries that ended are forgotten after the retention, pending ones never', async () => {
    const { account, endpoint } = await enterpriseWithEndpoint();
    receiver.answer([{ status: 200 }, { status: 500 }]);
    const worker = startWorker();
    await triggerAlert(account.accountId);
    await worker.drain();
    await triggerAlert(account.accountId);
    await worker.drain();
    const [pending, delivered] = await deliveriesOf(endpoint.id);
    expect([pending!.status, delivered!.status]).toEqual(['pending', 'delivered']);

    // The store is the suite's: other tests' deliveries may go too, so this endpoint's are checked.
    clock.advance(RETENTION_MS);
    await suite.store.webhooks.pruneFinished(clock.now() - RETENTION_MS);
    expect(await deliveriesOf(endpoint.id)).toHaveLength(2); // ended exactly the retention ago: kept
    clock.advance(1);
    expect(await suite.store.webhooks.pruneFinished(clock.now() - RETENTION_MS)).toBeGreaterThanOrEqual(1);
    expect((await deliveriesOf(endpoint.id)).map((d) => d.id)).toEqual([pending!.id]);
    expect(await suite.store.webhooks.findDelivery(delivered!.id, OPERATOR_SCOPE)).toBeUndefined();
    expect(await suite.store.webhooks.findDelivery(pending!.id, OPERATOR_SCOPE)).toMatchObject({ status: 'pending' });
  });

  maybe('a receiver that hangs is an attempt that times out, retried on the schedule', async () => {
    const { account, endpoint } = await enterpriseWithEndpoint();
    receiver.answer(['hang']);
    const worker = startWorker({ timeoutMs: 300 });
    await triggerAlert(account.accountId);
    await worker.drain();
    const [delivery] = await deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, lastStatus: null, lastError: 'no answer within 300 ms', nextAttemptAt: T0 + 5_000 });
  });

  maybe(
    'a 3xx towards an internal address is not followed: the attempt failed with its status, retried on the schedule, the target never reached',
    async () => {
      const { account, endpoint } = await enterpriseWithEndpoint();
      // "Internal": a server on loopback that only a followed redirect could reach.
      const internal = await startWebhookReceiver([{ status: 200 }]);
      try {
        receiver.answer([{ status: 307, headers: { location: internal.url('/admin') } }]);
        const worker = startWorker();
        await triggerAlert(account.accountId);
        await worker.drain();
        expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({
          status: 'pending',
          attempts: 1,
          lastStatus: 307,
          nextAttemptAt: T0 + RETRY_DELAYS_MS[0]!,
        });
        expect(internal.received).toEqual([]);
      } finally {
        await internal.close();
      }
    },
  );

  maybe('410 Gone disables the endpoint: no retry, and later events skip it', async () => {
    const { account, endpoint } = await enterpriseWithEndpoint();
    receiver.answer([{ status: 410 }]);
    const worker = startWorker();
    await triggerAlert(account.accountId);
    await worker.drain();
    expect(await suite.store.webhooks.findEndpoint(endpoint.id, OPERATOR_SCOPE)).toMatchObject({
      disabledAt: T0,
      disabledReason: 'the receiver answered 410 Gone',
    });
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({ status: 'failed', attempts: 1, lastStatus: 410 });
    clock.advance(RETRY_DELAYS_MS[0]);
    await triggerAlert(account.accountId);
    await worker.drain();
    expect(receiver.received).toHaveLength(1);
    expect(await deliveriesOf(endpoint.id)).toHaveLength(1);
  });

  maybe('429 with Retry-After: the next attempt waits as long as the receiver asked', async () => {
    const { account, endpoint } = await enterpriseWithEndpoint();
    receiver.answer([{ status: 429, headers: { 'retry-after': '120' } }, { status: 200 }]);
    const worker = startWorker();
    await triggerAlert(account.accountId);
    await worker.drain();
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({ status: 'pending', nextAttemptAt: T0 + 120_000 });
    clock.advance(119_999);
    await worker.drain();
    expect(receiver.received).toHaveLength(1);
    clock.advance(1);
    await worker.drain();
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  maybe('failing for the whole schedule: 8 attempts over 27 h 35 min, then the endpoint is disabled and says why', async () => {
    const { account, endpoint } = await enterpriseWithEndpoint();
    receiver.answer([{ status: 503 }]);
    const worker = startWorker();
    await triggerAlert(account.accountId);
    const attemptTimes: number[] = [];
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await worker.drain();
      attemptTimes.push(clock.now());
      const [delivery] = await deliveriesOf(endpoint.id);
      if (attempt < MAX_ATTEMPTS) clock.value = delivery!.nextAttemptAt;
    }
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS);
    expect(attemptTimes.slice(1).map((t, i) => t - attemptTimes[i]!)).toEqual([...RETRY_DELAYS_MS]);
    expect(attemptTimes.at(-1)! - T0).toBe((27 * 60 + 35) * 60_000 + 5_000);
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, lastError: 'the receiver answered 503' });
    const disabled = await suite.store.webhooks.findEndpoint(endpoint.id, OPERATOR_SCOPE);
    expect(disabled!.disabledReason).toMatch(
      /every delivery failed for the whole retry schedule \(8 attempts over about 28 h\); last: the receiver answered 503/,
    );
  });

  maybe('a hanging endpoint holds only its own slots: another endpoint is delivered meanwhile', async () => {
    const slow = await startWebhookReceiver(['hang']);
    try {
      const { account, endpoint: fast } = await enterpriseWithEndpoint();
      const { endpoint: stuck } = await registerEndpoint(
        { repo: suite.store.webhooks, activity: suite.store.activity, policy: LOOPBACK },
        { id: account.accountId, name: 'acme', marketDataPlan: 'enterprise', predictionPlan: 'none' },
        { url: slow.url() },
        clock.now(),
      );
      const worker = startWorker({ perEndpoint: 2, timeoutMs: 60_000 });
      for (let i = 0; i < 5; i++) await triggerAlert(account.accountId);
      worker.wake();
      await within(10_000, async () => (await deliveriesOf(fast.id)).every((d) => d.status === 'delivered'));
      expect(receiver.received).toHaveLength(5);
      // Two attempts hang at the slow receiver, no more; the other three wait their turn.
      await within(10_000, () => slow.received.length === 2 && worker.inFlight() === 2);
      await worker.wake();
      expect(slow.received).toHaveLength(2);
      expect((await deliveriesOf(stuck.id)).filter((d) => d.status === 'pending')).toHaveLength(5);
    } finally {
      await Promise.all(workers.splice(0).map((w) => w.stop()));
      await slow.close();
    }
  });

  maybe('a stopped worker leaves its attempt in flight unrecorded: the next one sends it again, same webhook-id', async () => {
    const { account, endpoint } = await enterpriseWithEndpoint();
    receiver.answer(['hang', { status: 200 }]);
    const first = startWorker();
    await triggerAlert(account.accountId);
    first.wake();
    await within(10_000, () => receiver.received.length === 1);
    await first.stop();
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({ status: 'pending', attempts: 0 });
    const second = startWorker();
    await second.drain();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  maybe('a queue read under way when the worker stops starts nothing: the abandoned attempt is not sent again', async () => {
    const { account, endpoint } = await enterpriseWithEndpoint();
    receiver.answer(['hang', { status: 200 }]);
    // The queue's reads can be held, as a slow database would hold them.
    let held: Promise<void> | undefined;
    const repo: WebhookRepository = Object.create(suite.store.webhooks);
    repo.dueEndpoints = async (...args) => {
      await held;
      return suite.store.webhooks.dueEndpoints(...args);
    };
    const worker = startWorker({ repo });
    await triggerAlert(account.accountId);
    await worker.wake();
    await within(10_000, () => receiver.received.length === 1);
    let release!: () => void;
    held = new Promise((resolve) => {
      release = resolve;
    });
    void worker.wake();
    const stopping = worker.stop();
    // The hanging attempt is abandoned while the read waits; then the read answers.
    await within(10_000, () => worker.inFlight() === 0);
    release();
    await stopping;
    expect(worker.inFlight()).toBe(0);
    expect(receiver.received).toHaveLength(1);
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({ status: 'pending', attempts: 0 });
  });

  maybe("woken from inside a request's deadline (a mutation's test webhook), the queue is read and the attempt recorded outside it", async () => {
    const { account, endpoint } = await enterpriseWithEndpoint();
    // What deadline each of the worker's store calls ran under: a request's would cut its writes.
    const deadlines: (number | undefined)[] = [];
    const repo: WebhookRepository = Object.create(suite.store.webhooks);
    repo.dueEndpoints = async (...args) => {
      deadlines.push(currentStoreDeadline());
      return suite.store.webhooks.dueEndpoints(...args);
    };
    repo.recordAttempt = async (...args) => {
      deadlines.push(currentStoreDeadline());
      return suite.store.webhooks.recordAttempt(...args);
    };
    const worker = startWorker({ repo });
    await worker.drain(); // the start's own read is over: the wake below is what finds the delivery
    await triggerAlert(account.accountId);
    deadlines.length = 0;
    await withinStoreDeadline(performance.now() - 1, () => worker.wake());
    await worker.drain();
    expect(receiver.received).toHaveLength(1);
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(deadlines.length).toBeGreaterThanOrEqual(2);
    expect(deadlines.every((d) => d === undefined)).toBe(true);
  });

  maybe('during a rotation both secrets sign; after the overlap only the new one', async () => {
    const { account, endpoint, secret: oldSecret } = await enterpriseWithEndpoint();
    const { secret: newSecret } = await rotateSecret(
      { repo: suite.store.webhooks, activity: suite.store.activity, policy: LOOPBACK },
      endpoint.id,
      clock.now(),
      { scope: OPERATOR_SCOPE, overlapMs: 1_000 },
    );
    const worker = startWorker();
    await triggerAlert(account.accountId);
    await worker.drain();
    const during = receiver.received[0]!;
    expect(during.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(() => new Webhook(oldSecret).verify(during.body, during.headers)).not.toThrow();
    expect(() => new Webhook(newSecret).verify(during.body, during.headers)).not.toThrow();

    clock.advance(1_000);
    await triggerAlert(account.accountId);
    await worker.drain();
    const after = receiver.received[1]!;
    expect(after.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(() => new Webhook(newSecret).verify(after.body, after.headers)).not.toThrow();
    expect(() => new Webhook(oldSecret).verify(after.body, after.headers)).toThrow(/No matching signature/);
  });

  maybe('an address that resolves to loopback at connect time is refused before a byte is sent (DNS rebinding)', async () => {
    const account = await issueKey(suite.store, { plan: 'enterprise', now: clock.now() });
    // Registered when its name pointed elsewhere; now it resolves to this machine.
    const endpoint = await suite.store.webhooks.createEndpoint({
      accountId: account.accountId,
      url: receiver.url().replace('127.0.0.1', 'localhost'),
      events: ['price_alert.triggered'],
      secret: `whsec_${Buffer.alloc(24, 2).toString('base64')}`,
      now: clock.now(),
    });
    const worker = startWorker({ policy: { allowHttp: true, allowedNetworks: [] } });
    await triggerAlert(account.accountId);
    await worker.drain();
    expect(receiver.received).toHaveLength(0);
    expect((await deliveriesOf(endpoint.id))[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: expect.stringMatching(/^destination refused: .*not allowed/),
    });
  });
});
