/**
 * Webhooks through the running service: registered on /graphql with graphql-request (Enterprise
 * only, SSRF forms refused with a 400), an alert's trigger delivered to a loopback receiver and
 * verified with standardwebhooks, its body valid against the `webhooks` section of the OpenAPI
 * document the listener serves (Ajv, JSON Schema 2020-12), and the figures on /metrics.
 */
import { ClientError, GraphQLClient } from 'graphql-request';
import { Webhook } from 'standardwebhooks';
import { newAjv } from '../support/openapi-judge.js';
import { bearer, closeAll, startWithWebhookReceiver, type TestService } from '../support/service.js';
import { within } from '../support/wait.js';
import type { WebhookReceiver } from '../support/webhook-receiver.js';

let t: TestService;
let receiver: WebhookReceiver;

beforeAll(async () => {
  ({ t, receiver } = await startWithWebhookReceiver());
});
afterAll(() => closeAll(t, receiver));

const client = (key: string) => new GraphQLClient(`${t.urls.a}/graphql`, { headers: bearer(key) });

const CREATE = /* GraphQL */ `
  mutation Create($url: String!, $events: [WebhookEventType!]) {
    createWebhookEndpoint(input: { url: $url, events: $events }) { secret endpoint { id url events disabledAt } }
  }
`;

/** The GraphQL error code and HTTP status a refused request got. */
async function refusal(request: Promise<unknown>): Promise<{ code: unknown; status: number; message: string }> {
  const error = await request.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ClientError)) throw new Error(`expected a GraphQL error, got ${String(error)}`);
  const first = error.response.errors?.[0];
  return { code: first?.extensions?.code, status: error.response.status, message: first?.message ?? '' };
}

async function triggerAlertFor(accountId: string): Promise<string> {
  const price = t.service.markets.quote('BTC/USD')!.price;
  const alert = await t.service.store.priceAlerts.create({
    accountId,
    symbol: 'BTC/USD',
    kind: 'price_above',
    threshold: price / 2,
    signal: null,
    expiresAt: null,
    now: t.clock.now(),
  });
  t.clock.advance(1_000);
  await t.service.alerts.evaluate([{ ...t.service.markets.quote('BTC/USD')!, observedAt: t.clock.now() }], t.clock.now());
  return alert.id;
}

/** Validates a delivered body against the served OpenAPI document's declaration of its event. */
async function validatorFor(type: string) {
  const document = (await t.a.get('/api/v1/openapi.json')).body;
  const schema = document.webhooks?.[type]?.post?.requestBody?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`the OpenAPI document declares no webhook ${type}`);
  return newAjv().compile(schema);
}

it('only Enterprise registers: a Pro or Free key is FORBIDDEN, on the mutation and the query', async () => {
  for (const plan of ['pro', 'free'] as const) {
    const { key } = await t.createKey(plan);
    expect(await refusal(client(key).request(CREATE, { url: receiver.url() }))).toMatchObject({ code: 'FORBIDDEN', status: 403 });
    expect(await refusal(client(key).request('{ webhookEndpoints { id } }'))).toMatchObject({ code: 'FORBIDDEN' });
  }
});

// A resolver's refusal is an execution error: BAD_USER_INPUT in a 200 answer, as GraphQL over HTTP has it.
it.each([
  ['cloud metadata (link-local)', 'http://169.254.169.254/latest/meta-data', /linkLocal/],
  ['a private address', 'http://10.1.2.3/hook', /private/],
  ['a unique-local IPv6 address', 'http://[fd00::1]/hook', /uniqueLocal/],
  ['an IPv4-mapped IPv6 address', 'http://[::ffff:10.0.0.1]/hook', /ipv4Mapped/],
  ['the unspecified address', 'http://0.0.0.0/hook', /unspecified/],
  ['a multicast address', 'http://224.0.0.1/hook', /multicast/],
  ['credentials in the URL', 'http://user:secret@example.com/hook', /credentials/],
  ['a port below 1024 other than 80 and 443', 'http://example.com:22/hook', /port 22/],
  ['another scheme', 'ftp://example.com/hook', /https:\/\/ or http:\/\//],
  ['a URL over 2 048 characters', `https://example.com/${'a'.repeat(2_100)}`, /longer than 2048/],
])('registration refuses %s with BAD_USER_INPUT saying why', async (_what, url, reason) => {
  const { key } = await t.createKey('enterprise');
  const refused = await refusal(client(key).request(CREATE, { url }));
  expect(refused).toMatchObject({ code: 'BAD_USER_INPUT' });
  expect(refused.message).toMatch(reason);
  expect(refused.message).not.toContain('secret@');
});

it('an alert trigger reaches the receiver once, signed, in the documented shape; the query shows the delivery', async () => {
  const { key, accountId } = await t.createKey('enterprise');
  const created = (await client(key).request(CREATE, { url: receiver.url('/alerts'), events: ['PRICE_ALERT_TRIGGERED'] })) as {
    createWebhookEndpoint: { secret: string; endpoint: { id: string; events: string[] } };
  };
  const { secret, endpoint } = created.createWebhookEndpoint;
  expect(secret).toMatch(/^whsec_/);
  expect(endpoint.events).toEqual(['PRICE_ALERT_TRIGGERED']);

  const alertId = await triggerAlertFor(accountId);
  await within(10_000, () => receiver.received.some((r) => r.path === '/alerts'));
  const received = receiver.received.filter((r) => r.path === '/alerts');
  expect(received).toHaveLength(1);
  const body = new Webhook(secret).verify(received[0]!.body, received[0]!.headers) as { type: string; data: { alert: { id: string } } };
  expect(body).toMatchObject({ type: 'price_alert.triggered', data: { alert: { id: alertId, status: 'triggered' } } });
  const validate = await validatorFor('price_alert.triggered');
  expect(validate(body) ? [] : validate.errors).toEqual([]);

  const listed = (await client(key).request('{ webhookEndpoints { id deliveries { id eventType status attempts lastStatusCode } } }')) as {
    webhookEndpoints: { id: string; deliveries: { id: string; eventType: string; status: string; attempts: number; lastStatusCode: number }[] }[];
  };
  await within(10_000, async () => {
    const again = (await client(key).request('{ webhookEndpoints { deliveries { status } } }')) as { webhookEndpoints: { deliveries: { status: string }[] }[] };
    return again.webhookEndpoints[0]!.deliveries[0]!.status === 'DELIVERED';
  });
  expect(listed.webhookEndpoints).toEqual([
    { id: endpoint.id, deliveries: [expect.objectContaining({ id: received[0]!.headers['webhook-id'], eventType: 'PRICE_ALERT_TRIGGERED' })] },
  ]);

  const metrics = (await t.a.get('/metrics')).text;
  expect(metrics).toMatch(/mgw_webhook_deliveries_total\{outcome="delivered"\} [1-9]/);
  expect(metrics).toMatch(/mgw_webhook_attempts_total\{result="2xx"\} [1-9]/);
  // The same attempt as an HTTP client request of the semantic conventions: its status, never where
  // it went (/metrics is read without a key; the receiver is the customer's).
  expect(metrics).toMatch(
    /http_client_request_duration_seconds_count\{http_request_method="POST",http_response_status_code="200",mgw_client="webhook"\} [1-9]/,
  );
  expect(metrics).not.toContain(new URL(receiver.url()).host);
  expect(metrics).toMatch(/mgw_webhook_queue_depth \d+/);
  expect(metrics).toMatch(/mgw_webhook_oldest_pending_age_seconds \d/);
});

it('sendTestWebhook delivers a webhook.test event valid against the document; another account cannot touch the endpoint', async () => {
  const owner = await t.createKey('enterprise');
  const other = await t.createKey('enterprise');
  const created = (await client(owner.key).request(CREATE, { url: receiver.url('/test') })) as {
    createWebhookEndpoint: { secret: string; endpoint: { id: string } };
  };
  const { id } = created.createWebhookEndpoint.endpoint;
  expect(await refusal(client(other.key).request('mutation($id: ID!) { sendTestWebhook(id: $id) { id } }', { id }))).toMatchObject({ code: 'NOT_FOUND' });
  expect(await refusal(client(other.key).request('mutation($id: ID!) { deleteWebhookEndpoint(id: $id) { id } }', { id }))).toMatchObject({ code: 'NOT_FOUND' });

  const queued = (await client(owner.key).request('mutation($id: ID!) { sendTestWebhook(id: $id) { id status eventType } }', { id })) as {
    sendTestWebhook: { id: string; status: string; eventType: string };
  };
  expect(queued.sendTestWebhook).toMatchObject({ status: 'PENDING', eventType: 'WEBHOOK_TEST' });
  await within(10_000, () => receiver.received.some((r) => r.headers['webhook-id'] === queued.sendTestWebhook.id));
  const request = receiver.received.find((r) => r.headers['webhook-id'] === queued.sendTestWebhook.id)!;
  const body = new Webhook(created.createWebhookEndpoint.secret).verify(request.body, request.headers);
  const validate = await validatorFor('webhook.test');
  expect(validate(body) ? [] : validate.errors).toEqual([]);
});

it('an account holds at most 10 endpoints', async () => {
  const { key } = await t.createKey('enterprise');
  for (let i = 0; i < 10; i++) await client(key).request(CREATE, { url: receiver.url(`/n${i}`) });
  const refused = await refusal(client(key).request(CREATE, { url: receiver.url('/n10') }));
  expect(refused).toMatchObject({ code: 'BAD_USER_INPUT' });
  expect(refused.message).toMatch(/at most 10/);
});

it('rotateWebhookSecret returns a new secret and the time the old one stops signing', async () => {
  const { key } = await t.createKey('enterprise');
  const created = (await client(key).request(CREATE, { url: receiver.url('/rotate') })) as {
    createWebhookEndpoint: { secret: string; endpoint: { id: string } };
  };
  const rotated = (await client(key).request(
    'mutation($id: ID!) { rotateWebhookSecret(id: $id, overlapHours: 2) { secret endpoint { previousSecretValidUntil } } }',
    { id: created.createWebhookEndpoint.endpoint.id },
  )) as { rotateWebhookSecret: { secret: string; endpoint: { previousSecretValidUntil: string } } };
  expect(rotated.rotateWebhookSecret.secret).toMatch(/^whsec_/);
  expect(rotated.rotateWebhookSecret.secret).not.toBe(created.createWebhookEndpoint.secret);
  expect(Date.parse(rotated.rotateWebhookSecret.endpoint.previousSecretValidUntil)).toBe(t.clock.now() + 2 * 3_600_000);
});
