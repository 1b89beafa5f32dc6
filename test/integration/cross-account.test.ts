/**
 * Every action on an account's things, tried by another account, over GraphQL and over the
 * dashboard: webhook endpoints (rotate the secret, enable, disable, send a test, delete,
 * list them and their deliveries), deliveries (replay), price alerts (read, list, cancel) and keys
 * (revoke, rotate). Each is answered like a missing thing (NOT_FOUND, 404, an empty list or null),
 * changes nothing of the owner's (endpoints, deliveries, alerts, keys, activity) and reveals nothing
 * (no secret, no URL of the owner's). The scope these actions take is required by their types
 * (`src/domain/scope.ts`); this table holds every entry point to it.
 */
import { Webhook } from 'standardwebhooks';
import type supertest from 'supertest';
import { CLI_ACTOR, issueKey } from '../../src/auth/key-management.js';
import { accountScope } from '../../src/domain/scope.js';
import { csrfOf, signedUpAgent } from '../support/dashboard.js';
import { realSecond, startTestService, TestClock, type TestService } from '../support/service.js';
import { within } from '../support/wait.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { CREATE_PRICE_ALERT, graphqlPost, priceAlertAbove } from '../support/graphql-call.js';

let t: TestService;
let receiver: WebhookReceiver;

/** An Enterprise and Pro account signed in on the dashboard, with a key for GraphQL. */
async function account(email: string) {
  const agent = await signedUpAgent(t.urls.a, email);
  const accountId = (await t.service.store.users.findByEmail(email))!.accountId;
  await t.service.store.accounts.setPlans(accountId, { marketDataPlan: 'enterprise' }, t.clock.now());
  const issued = await issueKey(t.service.store, (await t.service.store.accounts.findAccount(accountId))!, { name: 'cross' }, t.clock.now(), CLI_ACTOR);
  return { agent, accountId, key: issued.key, keyId: issued.record.id };
}

async function graphql(key: string, query: string, variables: Record<string, unknown> = {}) {
  const answer = await graphqlPost(t.a, key, query, variables);
  return {
    status: answer.status,
    body: answer.body as { data?: Record<string, unknown> | null; errors?: { extensions?: { code?: string } }[] },
    text: answer.text,
  };
}

let owner: Awaited<ReturnType<typeof account>>;
let intruder: Awaited<ReturnType<typeof account>>;
let ids: { endpoint: string; delivery: string; alert: string; key: string };
let ownerSecret: string;
const OWNER_PATH = '/owner-only-hook';

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await startTestService({
    clock: new TestClock(realSecond()),
    env: { WEBHOOK_ALLOW_HTTP: '1', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128', WEBHOOK_POLL_MS: '100' },
  });
  owner = await account('owner@example.com');
  intruder = await account('intruder@example.com');
  const created = await graphql(owner.key, 'mutation($url: String!) { createWebhookEndpoint(input: { url: $url }) { secret endpoint { id } } }', {
    url: receiver.url(OWNER_PATH),
  });
  const made = created.body.data!.createWebhookEndpoint as { secret: string; endpoint: { id: string } };
  ownerSecret = made.secret;
  const test = await graphql(owner.key, 'mutation($id: ID!) { sendTestWebhook(id: $id) { id } }', { id: made.endpoint.id });
  const deliveryId = (test.body.data!.sendTestWebhook as { id: string }).id;
  await within(10_000, async () => (await t.service.store.webhooks.findDelivery(deliveryId, accountScope(owner.accountId)))?.status === 'delivered');
  const alert = await graphql(owner.key, CREATE_PRICE_ALERT, priceAlertAbove(99999999));
  ids = { endpoint: made.endpoint.id, delivery: deliveryId, alert: (alert.body.data!.createPriceAlert as { id: string }).id, key: owner.keyId };
}, 60_000);
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

/** Everything of the owner's an action could change. */
async function ownerState() {
  const store = t.service.store;
  const scope = accountScope(owner.accountId);
  return {
    endpoints: await store.webhooks.listEndpoints(scope),
    deliveries: await store.webhooks.listDeliveries(ids.endpoint, 100, scope),
    alerts: await store.priceAlerts.list({ scope }),
    keys: (await store.accounts.keysOfAccount(owner.accountId)).map((k) => ({ id: k.id, revokedAt: k.revokedAt, expiresAt: k.expiresAt })),
    activity: (await store.activity.list(owner.accountId)).map((a) => [a.kind, a.detail]),
  };
}

type Ids = typeof ids;
/** What an answer must never hold: a signing secret, the owner's URL. */
const REVEALING = /whsec_|owner-only-hook/;

const GRAPHQL: [string, (i: Ids) => [string, Record<string, unknown>], 'NOT_FOUND' | ((data: Record<string, unknown>) => void)][] = [
  ['rotate the signing secret', (i) => ['mutation($id: ID!) { rotateWebhookSecret(id: $id) { secret } }', { id: i.endpoint }], 'NOT_FOUND'],
  ['enable an endpoint', (i) => ['mutation($id: ID!) { enableWebhookEndpoint(id: $id) { id } }', { id: i.endpoint }], 'NOT_FOUND'],
  ['send a test webhook', (i) => ['mutation($id: ID!) { sendTestWebhook(id: $id) { id } }', { id: i.endpoint }], 'NOT_FOUND'],
  ['replay a delivery', (i) => ['mutation($id: ID!) { replayWebhookDelivery(id: $id) { id } }', { id: i.delivery }], 'NOT_FOUND'],
  ['delete an endpoint', (i) => ['mutation($id: ID!) { deleteWebhookEndpoint(id: $id) { id } }', { id: i.endpoint }], 'NOT_FOUND'],
  ['cancel a price alert', (i) => ['mutation($id: ID!) { cancelPriceAlert(id: $id) { id } }', { id: i.alert }], 'NOT_FOUND'],
  ['list endpoints and their deliveries', () => ['{ webhookEndpoints { id url deliveries { id } } }', {}], (data) => expect(data.webhookEndpoints).toEqual([])],
  ['read a price alert', (i) => ['query($id: ID!) { priceAlert(id: $id) { id } }', { id: i.alert }], (data) => expect(data.priceAlert).toBeNull()],
  ['list price alerts', () => ['{ priceAlerts { total items { id } } }', {}], (data) => expect(data.priceAlerts).toEqual({ total: 0, items: [] })],
];

const DASHBOARD: [string, (i: Ids) => { path: string; fields?: Record<string, string> }][] = [
  ['rotate the signing secret', (i) => ({ path: '/account/webhooks', fields: { action: 'rotate', id: i.endpoint, rotation: '0' } })],
  ['enable an endpoint', (i) => ({ path: '/account/webhooks', fields: { action: 'enable', id: i.endpoint } })],
  ['disable an endpoint', (i) => ({ path: '/account/webhooks', fields: { action: 'disable', id: i.endpoint } })],
  ['send a test webhook', (i) => ({ path: '/account/webhooks', fields: { action: 'test', id: i.endpoint } })],
  ['replay a delivery', (i) => ({ path: '/account/webhooks', fields: { action: 'replay', id: i.delivery } })],
  ['delete an endpoint', (i) => ({ path: '/account/webhooks', fields: { action: 'delete', id: i.endpoint } })],
  ['confirm deleting an endpoint', (i) => ({ path: `/account/webhooks?delete=${i.endpoint}` })],
  ['cancel a price alert', (i) => ({ path: '/account/alerts', fields: { action: 'cancel', id: i.alert } })],
  ['revoke a key', (i) => ({ path: '/account/keys', fields: { action: 'revoke', id: i.key } })],
  ['rotate a key', (i) => ({ path: '/account/keys', fields: { action: 'rotate', id: i.key, revokeOld: 'yes' } })],
];

async function dashboardTry(agent: supertest.Agent, { path, fields }: { path: string; fields?: Record<string, string> }) {
  if (!fields) return agent.get(path);
  const csrf = csrfOf((await agent.get(path)).text);
  return agent
    .post(path)
    .type('form')
    .send({ csrf, ...fields });
}

describe("over GraphQL, with the other account's key", () => {
  it.each(GRAPHQL)('%s: answered like a missing thing, nothing changed, nothing revealed', async (_name, request, expected) => {
    const before = await ownerState();
    const [query, variables] = request(ids);
    const answer = await graphql(intruder.key, query, variables);
    if (expected === 'NOT_FOUND') {
      expect(answer.body.errors?.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);
      expect(answer.body.data ?? null).toBeNull();
    } else {
      expect(answer.body.errors).toBeUndefined();
      expected(answer.body.data!);
    }
    expect(answer.text).not.toMatch(REVEALING);
    expect(await ownerState()).toEqual(before);
  });
});

describe('over the dashboard, signed in as the other account', () => {
  it.each(DASHBOARD)('%s: 404, nothing changed, nothing revealed', async (_name, request) => {
    const before = await ownerState();
    const answer = await dashboardTry(intruder.agent, request(ids));
    expect(answer.status).toBe(404);
    expect(answer.text).not.toMatch(REVEALING);
    expect(answer.text).not.toContain('signing-secret');
    expect(await ownerState()).toEqual(before);
  });

  it.each(['/account/webhooks', '/account/alerts', '/account/keys', '/account/usage', '/account/security'])('%s shows nothing of the owner', async (path) => {
    const page = await intruder.agent.get(path);
    expect(page.status).toBe(200);
    for (const id of Object.values(ids)) expect(page.text).not.toContain(id);
    expect(page.text).not.toMatch(REVEALING);
  });
});

it("after every try, the owner's endpoint still signs with the secret it was given, and only with it", async () => {
  const before = receiver.received.length;
  const test = await graphql(owner.key, 'mutation($id: ID!) { sendTestWebhook(id: $id) { id } }', { id: ids.endpoint });
  expect(test.body.errors).toBeUndefined();
  await within(10_000, () => receiver.received.length > before);
  const received = receiver.received.at(-1)!;
  expect(received.headers['webhook-signature']!.split(' ')).toHaveLength(1); // no rotation's second signature
  expect(new Webhook(ownerSecret).verify(received.body, received.headers)).toMatchObject({ type: 'webhook.test' });
});
