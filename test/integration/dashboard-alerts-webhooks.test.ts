/**
 * The dashboard's Alerts and Webhooks pages over plain HTTP against the real service:
 * the alerts a page lists are exactly what `GET /api/v1/alerts` answers a key of the same account
 * (with the same status filter), at once after a change on the page; a Free account gets no form
 * and its writes are refused; another account's alert cannot be cancelled. An Enterprise account
 * adds an endpoint (the CLI's URL rules, its secret shown once), sends a test webhook that a
 * loopback receiver verifies with that secret, sees it delivered, and each change is in the
 * account's activity log; a cross-site POST changes nothing.
 */
import { Webhook } from 'standardwebhooks';
import type supertest from 'supertest';
import { CLI_ACTOR, issueKey } from '../../src/auth/key-management.js';
import type { MarketDataPlan } from '../../src/domain/account.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { csrfOf, rowsOf, signedUpAgent, submit, textOf } from '../support/dashboard.js';
import { bearer, closeAll, startWithWebhookReceiver, type TestService } from '../support/service.js';
import { within } from '../support/wait.js';
import type { WebhookReceiver } from '../support/webhook-receiver.js';
import { accountScope } from '../../src/domain/scope.js';

let t: TestService;
let receiver: WebhookReceiver;

beforeAll(async () => {
  ({ t, receiver } = await startWithWebhookReceiver());
});
afterAll(() => closeAll(t, receiver));

/** A signed-in dashboard person whose account has `plan`, with an API key of that account. */
async function dashboardAccount(email: string, plan: MarketDataPlan) {
  const agent = await signedUpAgent(t.urls.a, email);
  const accountId = (await t.service.store.users.findByEmail(email))!.accountId;
  if (plan !== 'free') await t.service.store.accounts.setPlans(accountId, { marketDataPlan: plan }, t.clock.now());
  const account = (await t.service.store.accounts.findAccount(accountId))!;
  const { key } = await issueKey(t.service.store, account, { name: 'page test' }, t.clock.now(), CLI_ACTOR);
  return { agent, accountId, key };
}

const alertsPage = async (agent: supertest.Agent, status?: string) => {
  const page = await agent.get(status ? `/account/alerts?status=${status}` : '/account/alerts');
  expect(page.status).toBe(200);
  return rowsOf(page.text, 'Price alerts', 'alert');
};

async function restAlerts(key: string, status?: string): Promise<{ id: string; symbol: string; status: string }[]> {
  const answer = await t.a.get(status ? `/api/v1/alerts?status=${status}` : '/api/v1/alerts').set(bearer(key));
  expect(answer.status).toBe(200);
  return answer.body.data;
}

/** Page rows as the REST route shows alerts: id, symbol, status. */
const asRest = (rows: { id: string; cells: string[] }[]) => rows.map((r) => ({ id: r.id, symbol: r.cells[0], status: r.cells[3]!.toLowerCase() }));
const idSymbolStatus = (alerts: { id: string; symbol: string; status: string }[]) => alerts.map(({ id, symbol, status }) => ({ id, symbol, status }));

describe('Alerts page', () => {
  it('lists exactly what GET /api/v1/alerts answers, per status filter; a cancel on the page leaves both lists at once', async () => {
    const { agent, key } = await dashboardAccount('alerts-pro@example.com', 'pro');
    const price = t.service.markets.quote('BTC/USD')!.price;
    const far = String(Math.ceil(price * 10)); // never met by the next quote
    // Only BTC/USD gets a new quote below: the signal alert, on another market, stays active whatever the demo's history.
    const other = (await t.service.store.markets.listMarkets()).find((m) => m.symbol !== 'BTC/USD')!.symbol;

    for (const fields of [
      { symbol: 'btc/usd', kind: 'price_above', threshold: far, signal: '' },
      { symbol: 'BTC/USD', kind: 'price_below', threshold: String(price * 2), signal: '' }, // met by the next quote: it triggers
      { symbol: other, kind: 'signal', threshold: '', signal: 'rsi_overbought' },
    ]) {
      const created = await submit(agent, '/account/alerts', { action: 'create', ...fields });
      expect(created.status).toBe(303);
      expect(created.headers.location).toBe('/account/alerts?done=created');
    }
    const shown = await agent.get('/account/alerts?done=created');
    expect(shown.text).toContain('role="status">The alert is created.');
    expect(rowsOf(shown.text, 'Price alerts', 'alert')).toHaveLength(3);
    expect(asRest(await alertsPage(agent))).toEqual(idSymbolStatus(await restAlerts(key)));

    t.clock.advance(1_000);
    await t.service.alerts.evaluate([{ ...t.service.markets.quote('BTC/USD')!, observedAt: t.clock.now() }], t.clock.now());
    for (const status of [undefined, 'all', 'active', 'triggered', 'expired']) {
      const rest = await restAlerts(key, status === 'all' ? undefined : status);
      expect(asRest(await alertsPage(agent, status))).toEqual(idSymbolStatus(rest));
    }
    expect((await restAlerts(key, 'triggered')).map((a) => a.symbol)).toEqual(['BTC/USD']);

    // Each active alert has its own cancel button, named for what it watches; a triggered one has none.
    const rows = await alertsPage(agent);
    const above = rows.find((r) => r.cells[2] === far)!;
    expect(above.html).toContain(`aria-label="Cancel alert on BTC/USD above ${far}"`);
    expect(rows.find((r) => r.cells[3] === 'Triggered')!.html).not.toContain('<button');
    // Signals in words (the API keeps their names).
    expect(rows.find((r) => r.cells[2] === 'RSI overbought (RSI 14 above 70)')!.html).toContain(
      `aria-label="Cancel alert on ${other} signal RSI overbought (RSI 14 above 70)"`,
    );

    expect((await restAlerts(key, 'active')).map((a) => a.id)).toContain(above.id); // the API keeps this answer
    const cancelled = await submit(agent, '/account/alerts', { action: 'cancel', id: above.id });
    expect(cancelled.headers.location).toBe('/account/alerts?done=cancelled');
    expect((await restAlerts(key, 'active')).map((a) => a.id)).not.toContain(above.id);
    expect((await alertsPage(agent, 'active')).map((r) => r.id)).not.toContain(above.id);
    expect(asRest(await alertsPage(agent))).toEqual(idSymbolStatus(await restAlerts(key)));
  });

  it("shows the rule's refusal on the form and keeps what was typed; an unknown status filter is a 400 like the route's", async () => {
    const { agent } = await dashboardAccount('alerts-typo@example.com', 'pro');
    const refused = await submit(agent, '/account/alerts', { action: 'create', symbol: 'BTC/USD', kind: 'price_above', threshold: '-5' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('role="alert">threshold must be a positive price');
    expect(refused.text).toMatch(/id="threshold"[^>]*value="-5"/);
    const unknown = await submit(agent, '/account/alerts', { action: 'create', symbol: 'NOPE/USD', kind: 'price_above', threshold: '5' });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('unknown symbol: NOPE/USD');
    const filter = await agent.get('/account/alerts?status=bogus');
    expect(filter.status).toBe(400);
    expect(filter.text).toContain('status must be one of active, triggered, expired');
  });

  it('a Free account is told how to upgrade, gets no form, and its POST is refused (403) with nothing created', async () => {
    const { agent, accountId } = await dashboardAccount('alerts-free@example.com', 'free');
    const page = await agent.get('/account/alerts');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Price alerts need the Pro or Enterprise market-data plan');
    expect(page.text).toContain('To upgrade');
    expect(page.text).not.toContain('Create alert');
    const refused = await agent
      .post('/account/alerts')
      .type('form')
      .send({ csrf: csrfOf(page.text), action: 'create', symbol: 'BTC/USD', kind: 'price_above', threshold: '1' });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('price alerts need the pro or enterprise market-data plan');
    expect(await t.service.store.priceAlerts.list({ scope: accountScope(accountId) })).toEqual([]);
  });

  it("another account cannot cancel this account's alert: answered like a missing one, the alert stays active", async () => {
    const owner = await dashboardAccount('alerts-owner@example.com', 'pro');
    const other = await dashboardAccount('alerts-other@example.com', 'enterprise');
    await submit(owner.agent, '/account/alerts', { action: 'create', symbol: 'BTC/USD', kind: 'price_above', threshold: '999999' });
    const [alert] = await restAlerts(owner.key);
    const refused = await submit(other.agent, '/account/alerts', { action: 'cancel', id: alert!.id });
    expect(refused.status).toBe(404);
    expect(refused.text).toContain(`no price alert with id ${alert!.id} on this account`);
    expect(idSymbolStatus(await restAlerts(owner.key, 'active'))).toEqual([{ id: alert!.id, symbol: 'BTC/USD', status: 'active' }]);
  });
});

describe('a form whose action the page does not name', () => {
  it("is refused (400) on the page's own form, after the plan the page needs (403), and changes nothing", async () => {
    const pro = await dashboardAccount('actions-pro@example.com', 'pro');
    for (const action of ['drop', 'constructor', '']) {
      const refused = await submit(pro.agent, '/account/alerts', { action, symbol: 'BTC/USD', kind: 'price_above', threshold: '1' });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain('role="alert">unknown action');
      expect(refused.text).toContain('Create alert');
    }
    expect(await restAlerts(pro.key)).toEqual([]);
    // The same unknown action from an account whose plan has no such page is refused for the plan first.
    const free = await dashboardAccount('actions-free@example.com', 'free');
    expect((await submit(free.agent, '/account/alerts', { action: 'drop' })).status).toBe(403);
    const hooks = await submit(pro.agent, '/account/webhooks', { action: 'drop' });
    expect(hooks.status).toBe(403);
    expect(hooks.text).toContain('webhooks need the enterprise market-data plan');
  });

  it('is refused for its form token first (403): a wrong or missing token never reaches the action lookup', async () => {
    const pro = await dashboardAccount('actions-token@example.com', 'pro');
    for (const action of ['drop', 'constructor', 'create'])
      for (const csrf of ['wrong', '']) {
        const refused = await pro.agent.post('/account/alerts').type('form').send({ csrf, action, symbol: 'BTC/USD', kind: 'price_above', threshold: '1' });
        expect(refused.status).toBe(403);
        expect(refused.text).not.toContain('unknown action');
      }
    expect(await restAlerts(pro.key)).toEqual([]);
  });
});

describe('Webhooks page', () => {
  const secretOf = (page: string) => /id="signing-secret" aria-label="Signing secret" class="secret" value="([^"]+)"/.exec(page)?.[1];
  const endpointsOf = async (agent: supertest.Agent) => rowsOf((await agent.get('/account/webhooks')).text, 'Webhook endpoints', 'endpoint');

  it('an Enterprise account adds an endpoint (secret shown once), sends a test webhook the receiver verifies, and sees it delivered', async () => {
    const { agent, accountId } = await dashboardAccount('hooks-ent@example.com', 'enterprise');
    const added = await submit(agent, '/account/webhooks', { action: 'add', url: receiver.url('/dashboard') });
    expect(added.status).toBe(200);
    const secret = secretOf(added.text);
    expect(secret).toMatch(/^whsec_/);
    expect(added.text).toContain('<button type="button" data-copy="signing-secret">Copy</button>');

    const again = await agent.get('/account/webhooks');
    expect(again.text).not.toContain(secret!);
    expect(again.text).not.toContain('signing-secret');
    const [endpoint] = rowsOf(again.text, 'Webhook endpoints', 'endpoint');
    expect(endpoint!.cells.slice(0, 3)).toEqual([receiver.url('/dashboard'), 'price_alert.triggered, price_alert.expired', 'Yes']);

    const tested = await submit(agent, '/account/webhooks', { action: 'test', id: endpoint!.id });
    expect(tested.headers.location).toBe('/account/webhooks?done=tested');
    await within(10_000, () => receiver.received.some((r) => r.path === '/dashboard'));
    const delivered = receiver.received.find((r) => r.path === '/dashboard')!;
    const event = new Webhook(secret!).verify(delivered.body, delivered.headers) as { type: string; data: { endpoint_id: string } };
    expect(event).toMatchObject({ type: 'webhook.test', data: { endpoint_id: endpoint!.id } });

    let rows: ReturnType<typeof rowsOf> = [];
    await within(10_000, async () => {
      rows = rowsOf((await agent.get('/account/webhooks')).text, 'Deliveries', 'delivery');
      return rows[0]?.cells[2] === 'delivered';
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toBe(delivered.headers['webhook-id']);
    expect(rows[0]!.cells.slice(0, 5)).toEqual(['webhook.test', receiver.url('/dashboard'), 'delivered', '1', 'HTTP 200']);
    expect(rows[0]!.html).toContain('>Replay</button>');

    const replayed = await submit(agent, '/account/webhooks', { action: 'replay', id: rows[0]!.id });
    expect(replayed.headers.location).toBe('/account/webhooks?done=replayed');
    await within(10_000, () => receiver.received.filter((r) => r.path === '/dashboard').length === 2);
    expect(receiver.received.filter((r) => r.path === '/dashboard')[1]!.headers['webhook-id']).toBe(rows[0]!.id);

    const activity = await t.service.store.activity.list(accountId);
    expect(activity.filter((a) => a.kind.startsWith('webhook_')).map((a) => a.kind)).toEqual(['webhook_added']);
  });

  it.each([
    ['cloud metadata (link-local)', 'http://169.254.169.254/', /^url refused: .*linkLocal/],
    ['another scheme', 'ftp://x', /^url refused: .*https:\/\/ or http:\/\//],
  ])("refuses %s with the rule's message, adding nothing", async (_what, url, message) => {
    const { agent, accountId } = await dashboardAccount(`hooks-refused-${url.length}@example.com`, 'enterprise');
    const refused = await submit(agent, '/account/webhooks', { action: 'add', url });
    expect(refused.status).toBe(400);
    const alert = /role="alert">([^<]*)</.exec(refused.text)?.[1];
    expect(textOf(alert ?? '')).toMatch(message);
    expect(refused.text).not.toContain('signing-secret');
    expect(await t.service.store.webhooks.listEndpoints(accountScope(accountId))).toEqual([]);
  });

  it('an add form sent again (a reload of the page that showed the secret) adds no second endpoint, and says which it added', async () => {
    const { agent, accountId } = await dashboardAccount('hooks-reload@example.com', 'enterprise');
    const url = receiver.url('/reloaded');
    /** The add form as the browser sends it: its hidden fields and the URL typed. */
    const formOf = async () => {
      const page = (await agent.get('/account/webhooks')).text;
      const after = /name="after" value="(\d+)"/.exec(page)?.[1];
      expect(after).toBeDefined();
      return { csrf: csrfOf(page), action: 'add', after: after!, url };
    };
    const send = (form: Record<string, string>) => agent.post('/account/webhooks').type('form').send(form);

    const form = await formOf();
    const first = await send(form);
    expect(first.status).toBe(200);
    expect(secretOf(first.text)).toMatch(/^whsec_/);
    const again = await send(form);
    expect(again.status).toBe(409);
    expect(secretOf(again.text)).toBeUndefined();
    expect(textOf(again.text)).toContain(`This form already added the endpoint ${url}`);
    expect(await t.service.store.webhooks.listEndpoints(accountScope(accountId))).toHaveLength(1);

    // The form shown again adds one for the same URL if asked: only a form sent twice is refused.
    expect((await send(await formOf())).status).toBe(200);
    expect(await t.service.store.webhooks.listEndpoints(accountScope(accountId))).toHaveLength(2);
  });

  it('a Rotate form sent again (a reload of the page that showed the new secret) rotates nothing more: the secret shown and the one before both still sign', async () => {
    const { agent } = await dashboardAccount('hooks-rotate-reload@example.com', 'enterprise');
    const path = '/rotate-reloaded';
    const original = secretOf((await submit(agent, '/account/webhooks', { action: 'add', url: receiver.url(path) })).text)!;
    /** The endpoint's Rotate form as the browser sends it, with the hidden fields of the page shown now. */
    const rotateForm = async () => {
      const page = (await agent.get('/account/webhooks')).text;
      const [endpoint] = rowsOf(page, 'Webhook endpoints', 'endpoint');
      const rotated = /name="action" value="rotate">.*?name="rotated" value="(\d+)"/s.exec(endpoint!.html)?.[1];
      expect(rotated).toBeDefined();
      return { csrf: csrfOf(page), action: 'rotate', id: endpoint!.id, rotated: rotated! };
    };
    const send = (form: Record<string, string>) => agent.post('/account/webhooks').type('form').send(form);

    const form = await rotateForm();
    const first = await send(form);
    expect(first.status).toBe(200);
    const shown = secretOf(first.text)!;
    expect(shown).toMatch(/^whsec_/);
    const again = await send(form);
    expect(again.status).toBe(409);
    expect(secretOf(again.text)).toBeUndefined();
    expect(textOf(again.text)).toContain(`The signing secret of ${receiver.url(path)} was rotated after this form was shown`);

    // A delivery now is signed with the secret shown and, within the overlap, the one before it: a
    // second rotation would have signed with a third secret and the one shown, not the original.
    expect((await submit(agent, '/account/webhooks', { action: 'test', id: form.id })).headers.location).toBe('/account/webhooks?done=tested');
    await within(10_000, () => receiver.received.some((r) => r.path === path));
    const delivered = receiver.received.find((r) => r.path === path)!;
    for (const secret of [shown, original]) expect(new Webhook(secret).verify(delivered.body, delivered.headers)).toMatchObject({ type: 'webhook.test' });

    // The form shown again rotates if asked: only a form sent twice is refused.
    expect((await send(await rotateForm())).status).toBe(200);
  });

  it('a Rotate form sent twice at once (a fast double click) rotates once', async () => {
    const { agent, accountId } = await dashboardAccount('hooks-rotate-twice@example.com', 'enterprise');
    await submit(agent, '/account/webhooks', { action: 'add', url: receiver.url('/rotate-twice') });
    const page = (await agent.get('/account/webhooks')).text;
    const [endpoint] = rowsOf(page, 'Webhook endpoints', 'endpoint');
    const rotated = /name="rotated" value="(\d+)"/.exec(endpoint!.html)?.[1];
    const form = { csrf: csrfOf(page), action: 'rotate', id: endpoint!.id, rotated: rotated! };
    const answers = await Promise.all([0, 1].map(() => agent.post('/account/webhooks').type('form').send(form)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const changes = (await t.service.store.activity.list(accountId)).filter((a) => a.detail.includes('given a new signing secret'));
    expect(changes).toHaveLength(1);
  });

  it('a cross-site POST to add an endpoint is refused (403) before anything is added', async () => {
    const { agent, accountId } = await dashboardAccount('hooks-csrf@example.com', 'enterprise');
    const page = await agent.get('/account/webhooks');
    const refused = await agent
      .post('/account/webhooks')
      .set('Origin', 'https://evil.example')
      .type('form')
      .send({ csrf: csrfOf(page.text), action: 'add', url: receiver.url('/evil') });
    expect(refused.status).toBe(403);
    expect(await t.service.store.webhooks.listEndpoints(accountScope(accountId))).toEqual([]);
  });

  it('a Pro account is told webhooks need Enterprise, gets no form, and its POST is refused (403)', async () => {
    const { agent, accountId } = await dashboardAccount('hooks-pro@example.com', 'pro');
    const page = await agent.get('/account/webhooks');
    expect(page.text).toContain('Webhooks need the Enterprise market-data plan');
    expect(page.text).not.toContain('Add endpoint');
    const refused = await agent
      .post('/account/webhooks')
      .type('form')
      .send({ csrf: csrfOf(page.text), action: 'add', url: receiver.url('/pro') });
    expect(refused.status).toBe(403);
    expect(await t.service.store.webhooks.listEndpoints(accountScope(accountId))).toEqual([]);
  });

  it("rotate shows the new secret once, disable and enable, delete after a confirmation: each in the account's activity, never a secret", async () => {
    const { agent, accountId } = await dashboardAccount('hooks-changes@example.com', 'enterprise');
    const first = secretOf((await submit(agent, '/account/webhooks', { action: 'add', url: receiver.url('/changes'), events: 'price_alert.triggered' })).text)!;
    const [endpoint] = await endpointsOf(agent);
    expect(endpoint!.cells[1]).toBe('price_alert.triggered');

    const rotated = await submit(agent, '/account/webhooks', { action: 'rotate', id: endpoint!.id });
    expect(rotated.status).toBe(200);
    const second = secretOf(rotated.text)!;
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);
    expect((await agent.get('/account/webhooks')).text).not.toContain(second);

    expect((await submit(agent, '/account/webhooks', { action: 'disable', id: endpoint!.id })).headers.location).toBe('/account/webhooks?done=disabled');
    const disabled = await endpointsOf(agent);
    expect(disabled[0]!.cells[2]).toMatch(/^No, since .*: disabled by its owner$/);
    expect(disabled[0]!.html).not.toContain('Send test webhook');
    expect((await submit(agent, '/account/webhooks', { action: 'enable', id: endpoint!.id })).headers.location).toBe('/account/webhooks?done=enabled');
    expect((await endpointsOf(agent))[0]!.cells[2]).toBe('Yes');

    const confirm = await agent.get(`/account/webhooks?delete=${endpoint!.id}`);
    expect(confirm.text).toContain('>Delete endpoint</button>');
    expect(await t.service.store.webhooks.listEndpoints(accountScope(accountId))).toHaveLength(1); // asking deletes nothing
    const deleted = await agent
      .post('/account/webhooks')
      .type('form')
      .send({ csrf: csrfOf(confirm.text), action: 'delete', id: endpoint!.id });
    expect(deleted.headers.location).toBe('/account/webhooks?done=deleted');
    expect(await t.service.store.webhooks.listEndpoints(accountScope(accountId))).toEqual([]);

    const activity = (await t.service.store.activity.list(accountId)).filter((a) => a.kind.startsWith('webhook_')).reverse();
    expect(activity.map((a) => [a.kind, a.detail.replace(/until \S+/, 'until …')])).toEqual([
      ['webhook_added', `webhook endpoint ${endpoint!.id} (${receiver.url('/changes')}) added for price_alert.triggered`],
      ['webhook_changed', `webhook endpoint ${endpoint!.id} (${receiver.url('/changes')}) given a new signing secret; the previous one signs until …`],
      ['webhook_changed', `webhook endpoint ${endpoint!.id} (${receiver.url('/changes')}) disabled`],
      ['webhook_changed', `webhook endpoint ${endpoint!.id} (${receiver.url('/changes')}) enabled`],
      ['webhook_deleted', `webhook endpoint ${endpoint!.id} (${receiver.url('/changes')}) deleted`],
    ]);
    for (const entry of activity) {
      expect(entry.clientAddress).toMatch(/127\.0\.0\.1$/);
      expect(entry.detail).not.toContain(first);
      expect(entry.detail).not.toContain(second);
    }
  });

  it("another account's endpoint cannot be touched from the page", async () => {
    const owner = await dashboardAccount('hooks-owner@example.com', 'enterprise');
    const other = await dashboardAccount('hooks-other@example.com', 'enterprise');
    await submit(owner.agent, '/account/webhooks', { action: 'add', url: receiver.url('/owner') });
    const [endpoint] = await endpointsOf(owner.agent);
    for (const action of ['delete', 'rotate', 'disable', 'test']) {
      const refused = await submit(other.agent, '/account/webhooks', { action, id: endpoint!.id });
      expect(refused.status).toBe(404);
      expect(refused.text).not.toContain('signing-secret');
    }
    expect((await other.agent.get(`/account/webhooks?delete=${endpoint!.id}`)).status).toBe(404);
    expect(await t.service.store.webhooks.listEndpoints(accountScope(owner.accountId))).toMatchObject([{ id: endpoint!.id, disabledAt: null }]);
  });

  it("the operator's CLI goes through the same rules: its endpoint changes are in the account's activity too, without a client address", async () => {
    const { accountId } = await dashboardAccount('hooks-cli@example.com', 'enterprise');
    const env = { DATA_DIR: t.dataDir, WEBHOOK_ALLOW_HTTP: '1', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' };
    const created = await runCliInProcess(['webhooks', 'create', '--account', accountId, '--url', receiver.url('/cli'), '--json'], env);
    expect(created.code).toBe(0);
    const { id, secret } = JSON.parse(created.stdout) as { id: string; secret: string };
    expect((await runCliInProcess(['webhooks', 'delete', id], env)).code).toBe(0);
    const activity = (await t.service.store.activity.list(accountId)).filter((a) => a.kind.startsWith('webhook_')).reverse();
    expect(activity.map((a) => [a.kind, a.clientAddress])).toEqual([
      ['webhook_added', null],
      ['webhook_deleted', null],
    ]);
    expect(activity.every((a) => a.detail.includes(id) && !a.detail.includes(secret))).toBe(true);
  });
});
