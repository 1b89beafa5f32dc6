/**
 * Webhooks (Enterprise, variant A): the account's endpoints and their recent deliveries, through
 * the rules of the CLI and the GraphQL mutations (src/webhooks/endpoints.ts), which also write each
 * change to the account's activity log. A signing secret is shown once, in the answer to the POST
 * that made it (adding, rotating), and never again; that page is the answer to a POST, so a reload
 * sends its form again, and a form sent again adds or rotates nothing more (409). Deleting asks
 * first (`?delete=<id>`).
 */
import type { Account } from '../../domain/account.js';
import { SUBSCRIBABLE_EVENT_TYPES, type WebhookDelivery, type WebhookEndpoint } from '../../domain/webhooks.js';
import {
  assertEnterprise,
  deleteEndpoint,
  disableEndpoint,
  enableEndpoint,
  listDeliveries,
  registerEndpoint,
  replayDelivery,
  RotatedSince,
  rotateSecret,
  sendTestEvent,
} from '../../webhooks/endpoints.js';
import { type Html, html } from '../html.js';
import { postButton, postForm, secretField, stackedCell, stackedTableHead } from '../layout.js';
import { type DashboardAnswer, type DashboardPage, type DashboardRequest, sentAgain } from '../page.js';
import { actorOf, noticeOf, signedInAccount, timeCell, utcText } from './signed-in-account.js';
import { accountScope } from '../../domain/scope.js';

const PATH = '/account/webhooks';
/** How many of the latest deliveries the page lists, over all endpoints. */
const DELIVERIES_SHOWN = 25;

const NOTICES: Record<string, string> = {
  tested: 'A webhook.test event is queued for the endpoint; its delivery shows below.',
  replayed: 'The delivery is queued again, with the same webhook-id and body.',
  enabled: 'The endpoint is enabled: it receives new events (replay the ones it missed).',
  disabled: 'The endpoint is disabled: it receives nothing, and its pending deliveries failed, until you enable it.',
  deleted: 'The endpoint is deleted; its pending deliveries are never sent.',
};

/** A POST button with its action; `label` names it where its visible text alone would be ambiguous. */
const actionButton = (r: DashboardRequest, fields: Record<string, string>, text: string, label?: string, kind = 'secondary') =>
  postButton(PATH, r.session!.csrfToken, fields, text, { ...(label ? { label } : {}), kind });

const stateOf = (e: WebhookEndpoint) => (e.disabledAt === null ? 'Yes' : `No, since ${new Date(e.disabledAt).toISOString()}: ${e.disabledReason}`);

function endpointTable(r: DashboardRequest, endpoints: readonly WebhookEndpoint[]) {
  if (endpoints.length === 0) return html`<p>No endpoints yet.</p>`;
  return html`
${stackedTableHead('endpoints-caption', 'Webhook endpoints', ['URL', 'Events', 'Enabled', 'Created', 'Actions'])}
<tbody role="rowgroup">
${endpoints.map(
  (e) => html`<tr data-endpoint="${e.id}" role="row">
<th scope="row" role="rowheader" data-label="URL">${e.url}</th>${stackedCell('Events', e.events.join(', '))}${stackedCell('Enabled', stateOf(e))}${stackedCell('Created', timeCell(e.createdAt))}
${stackedCell(
  'Actions',
  html`<span class="actions">
${e.disabledAt === null ? actionButton(r, { action: 'test', id: e.id }, 'Send test webhook') : ''}
${actionButton(r, { action: 'rotate', id: e.id, rotated: String(e.previousSecretUntil ?? 0) }, 'Rotate secret', `Rotate secret of ${e.url}`)}
${e.disabledAt === null ? actionButton(r, { action: 'disable', id: e.id }, 'Disable', `Disable ${e.url}`) : actionButton(r, { action: 'enable', id: e.id }, 'Enable', `Enable ${e.url}`)}
<a href="${PATH}?delete=${encodeURIComponent(e.id)}" aria-label="${`Delete ${e.url}`}">Delete</a>
</span>`,
)}
</tr>`,
)}
</tbody>
</table>`;
}

function deliveryTable(r: DashboardRequest, deliveries: readonly WebhookDelivery[], urls: ReadonlyMap<string, string>) {
  if (deliveries.length === 0) return html`<h2>Deliveries</h2><p>No deliveries yet: send a test webhook to see one.</p>`;
  const answerOf = (d: WebhookDelivery) => [d.lastStatus === null ? '' : `HTTP ${d.lastStatus}`, d.lastError ?? ''].filter(Boolean).join(': ') || '—';
  return html`
<table>
<caption>Deliveries</caption>
<thead><tr><th scope="col">Event</th><th scope="col">Endpoint</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last answer</th><th scope="col">Time</th><th scope="col">Replay</th></tr></thead>
<tbody>
${deliveries.map(
  (d) => html`<tr data-delivery="${d.id}">
<td>${d.eventType}</td><td>${urls.get(d.endpointId) ?? d.endpointId}</td><td>${d.status}</td><td>${d.attempts}</td><td>${answerOf(d)}</td><td>${timeCell(d.lastAttemptAt ?? d.createdAt)}</td>
<td>${d.status === 'pending' ? '' : actionButton(r, { action: 'replay', id: d.id }, 'Replay')}</td>
</tr>`,
)}
</tbody>
</table>`;
}

/**
 * The endpoint this form added already, when it is sent again (a reload of the page that showed
 * its secret, which answered the POST): one for the same URL added after the newest endpoint the
 * form saw (`after`, its creation time; endpoints can be deleted, so no count would do). A form
 * without `after` (a script's POST) is not checked.
 */
async function addedByThisForm(r: DashboardRequest, account: Account): Promise<WebhookEndpoint | undefined> {
  const after = r.form.get('after') ?? '';
  const raw = r.form.get('url') ?? '';
  if (!/^\d{1,15}$/.test(after) || !URL.canParse(raw)) return undefined;
  const url = new URL(raw).href; // as registerEndpoint stores it
  return (await r.services.webhooks.repo.listEndpoints(accountScope(account.id))).find((e) => e.url === url && e.createdAt > Number(after));
}

function alreadyAdded(r: DashboardRequest, endpoint: WebhookEndpoint): Promise<DashboardAnswer> {
  return sentAgain(
    webhooksPage,
    r,
    `This form already added the endpoint ${endpoint.url} at ${utcText(endpoint.createdAt)}, and showed its signing secret in the answer to that request, once. No other endpoint was added. If you did not copy the secret, rotate it.`,
  );
}

/**
 * The rotation a Rotate button saw (`rotated`: the endpoint's `previousSecretUntil`, which every
 * rotation sets and nothing else does; 0 before the first). Sent again (a reload of the page that
 * showed the new secret, a second click), the form finds a later one and rotates nothing
 * (`RotatedSince`): rotating again would replace the secret just shown and stop the one the
 * receiver still has from signing at once. A form without it (a script's POST) is not checked.
 */
function rotationSeen(r: DashboardRequest): number | undefined {
  const seen = r.form.get('rotated') ?? '';
  return /^\d{1,15}$/.test(seen) ? Number(seen) : undefined;
}

function alreadyRotated(r: DashboardRequest, endpoint: WebhookEndpoint): Promise<DashboardAnswer> {
  return sentAgain(
    webhooksPage,
    r,
    `The signing secret of ${endpoint.url} was rotated after this form was shown, and the new secret was shown in the answer to that request, once. It was not rotated again. If you did not copy it, rotate it again from the table below.`,
  );
}

function addForm(r: DashboardRequest, newest: number) {
  const chosen = new Set(r.form.getAll('events'));
  return html`
<h2>Add an endpoint</h2>
${postForm(
  PATH,
  r.session!.csrfToken,
  { action: 'add', after: String(newest) },
  html`
<label for="url">Endpoint URL</label>
<input id="url" name="url" type="url" required maxlength="2048" autocomplete="off" value="${r.form.get('url') ?? ''}" aria-describedby="url-hint">
<p id="url-hint" class="hint">An https:// address of your receiver, reachable from the internet; at most 10 endpoints.</p>
<fieldset>
<legend>Events (all of them when none is ticked)</legend>
${SUBSCRIBABLE_EVENT_TYPES.map((t) => html`<label><input type="checkbox" name="events" value="${t}"${chosen.has(t) ? html` checked` : ''}> ${t}</label>`)}
</fieldset>
<div><button type="submit">Add endpoint</button></div>`,
)}
<p class="hint">Deliveries are signed as <a href="https://www.standardwebhooks.com/">Standard Webhooks</a>: verify them with the signing secret shown when you add an endpoint or rotate its secret.</p>`;
}

/** The secret of an endpoint just added or rotated: shown in this answer only. */
function secretPanel(endpoint: WebhookEndpoint, secret: string, rotated: boolean) {
  return html`
<section aria-labelledby="secret-heading">
<h2 id="secret-heading">Signing secret of ${endpoint.url}</h2>
<p>Copy it now and keep it with your receiver: it is shown once, never again.${
    rotated && endpoint.previousSecretUntil !== null
      ? ` The previous secret also signs until ${new Date(endpoint.previousSecretUntil).toISOString()}, so the receiver can switch in the meantime.`
      : ''
  }</p>
${secretField('signing-secret', 'Signing secret', secret)}
</section>`;
}

function notEnterprise(account: Account) {
  return html`<p>Webhooks need the Enterprise market-data plan; this account is on the ${account.marketDataPlan} plan.</p>
<p>To upgrade, ask the operator of this gateway to move the account to the Enterprise market-data plan.</p>`;
}

async function mainBody(r: DashboardRequest, account: Account, top: Html | '' = '') {
  const scope = accountScope(account.id);
  const endpoints = await r.services.webhooks.repo.listEndpoints(scope);
  const lists = await Promise.all(endpoints.map((e) => listDeliveries(r.services.webhooks, e.id, DELIVERIES_SHOWN, scope)));
  const deliveries = lists
    .flat()
    .sort((a, b) => b.createdAt - a.createdAt || b.id.localeCompare(a.id))
    .slice(0, DELIVERIES_SHOWN);
  return html`${top}
${endpointTable(r, endpoints)}
${deliveryTable(r, deliveries, new Map(endpoints.map((e) => [e.id, e.url])))}
${addForm(r, Math.max(0, ...endpoints.map((e) => e.createdAt)))}`;
}

async function confirmDelete(r: DashboardRequest, account: Account, id: string): Promise<DashboardAnswer> {
  const endpoint = await r.services.webhooks.repo.findEndpoint(id, accountScope(account.id));
  if (!endpoint) {
    const body = html`<p><a href="${PATH}">Back to webhooks</a></p>`;
    return { html: r.render('Webhooks', body, { error: `no webhook endpoint with id ${id} on this account`, section: 'webhooks' }), status: 404 };
  }
  const body = html`
<p>Delete the endpoint <strong>${endpoint.url}</strong>? It stops receiving events at once, its pending deliveries are never sent, and its signing secret stops working. This cannot be undone.</p>
${actionButton(r, { action: 'delete', id: endpoint.id }, 'Delete endpoint', undefined, 'danger')}
<p><a href="${PATH}">Keep it</a></p>`;
  return { html: r.render('Delete webhook endpoint', body, { section: 'webhooks' }) };
}

/** Whose change a form makes, for the rules and the activity log: the signed-in account's, from this client. */
async function changeBy(r: DashboardRequest) {
  return { scope: accountScope((await signedInAccount(r)).id), actor: actorOf(r) };
}

/** The page with the secret of an endpoint just added or rotated. */
async function withSecret(
  r: DashboardRequest,
  account: Account,
  made: { endpoint: WebhookEndpoint; secret: string },
  rotated: boolean,
  notice: string,
): Promise<DashboardAnswer> {
  r.form = new URLSearchParams(); // the add form starts empty again
  const body = await mainBody(r, account, secretPanel(made.endpoint, made.secret, rotated));
  return { html: r.render('Webhooks', body, { notice, section: 'webhooks' }) };
}

export const webhooksPage: DashboardPage = {
  path: 'webhooks',
  signedIn: true,
  async get(r, shown) {
    const account = await signedInAccount(r);
    const extra = { error: shown?.error, notice: shown ? undefined : noticeOf(r, NOTICES), section: 'webhooks' as const };
    if (account.marketDataPlan !== 'enterprise') return { html: r.render('Webhooks', notEnterprise(account), extra), status: shown?.status ?? 200 };
    const deleting = r.url.searchParams.get('delete');
    if (deleting && !shown) return confirmDelete(r, account, deleting);
    return { html: r.render('Webhooks', await mainBody(r, account), extra), status: shown?.status ?? 200 };
  },
  async assertMayPost(r) {
    assertEnterprise(await signedInAccount(r));
  },
  actions: {
    async add(r) {
      const account = await signedInAccount(r);
      const now = r.services.now();
      const added = await addedByThisForm(r, account);
      if (added) return alreadyAdded(r, added);
      const events = r.form.getAll('events');
      const made = await registerEndpoint(
        r.services.webhooks,
        account,
        { url: r.form.get('url') ?? '', events: events.length > 0 ? events : undefined },
        now,
        actorOf(r),
      );
      return withSecret(r, account, made, false, `The endpoint ${made.endpoint.url} is added.`);
    },
    async rotate(r) {
      const account = await signedInAccount(r);
      const change = { scope: accountScope(account.id), actor: actorOf(r), ifRotation: rotationSeen(r) };
      const made = await rotateSecret(r.services.webhooks, r.form.get('id') ?? '', r.services.now(), change).catch((error: unknown) => {
        if (error instanceof RotatedSince) return error;
        throw error;
      });
      if (made instanceof RotatedSince) return alreadyRotated(r, made.endpoint);
      return withSecret(r, account, made, true, `The endpoint ${made.endpoint.url} has a new signing secret.`);
    },
    async test(r) {
      await sendTestEvent(r.services.webhooks, r.form.get('id') ?? '', r.services.now(), (await changeBy(r)).scope);
      return { redirect: `${PATH}?done=tested` };
    },
    async replay(r) {
      await replayDelivery(r.services.webhooks, r.form.get('id') ?? '', r.services.now(), (await changeBy(r)).scope);
      return { redirect: `${PATH}?done=replayed` };
    },
    async enable(r) {
      await enableEndpoint(r.services.webhooks, r.form.get('id') ?? '', r.services.now(), await changeBy(r));
      return { redirect: `${PATH}?done=enabled` };
    },
    async disable(r) {
      await disableEndpoint(r.services.webhooks, r.form.get('id') ?? '', r.services.now(), await changeBy(r));
      return { redirect: `${PATH}?done=disabled` };
    },
    async delete(r) {
      await deleteEndpoint(r.services.webhooks, r.form.get('id') ?? '', r.services.now(), await changeBy(r));
      return { redirect: `${PATH}?done=deleted` };
    },
  },
};
