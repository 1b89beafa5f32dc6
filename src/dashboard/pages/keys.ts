/**
 * API keys ("in the account dashboard under the settings for API keys", the contract): the
 * account's keys with their state and last use, a form to create one (shown once, in the answer to
 * the POST that made it), and per key a rotation and a revocation, each confirmed on its own page
 * first. The rules are the CLI's (src/auth/key-management.ts): 20 live keys, an expiry in the
 * future, the change in the activity log. On variant B a key comes after the Pro plan (D3): until
 * then the page says how to get it and creates nothing.
 *
 * The page that shows a new key is the answer to a POST, so a reload sends the form again. Each
 * form that makes a key says how many keys the account had when it was shown (`seen`; keys are
 * never deleted, only revoked), and a form whose key was made already makes none (409).
 */
import { type IssuedKey, issueKey, MAX_KEY_NAME, keyState, type KeyState, listKeys, revokeKey, rotateKey } from '../../auth/key-management.js';
import { type Account, MAX_LIVE_KEYS_PER_ACCOUNT } from '../../domain/account.js';
import { forbidden, invalid } from '../../domain/errors.js';
import { utcDate } from '../../domain/time.js';
import type { AccountKey } from '../../store/accounts.js';
import { type Html, html } from '../html.js';
import { confirmButton, distinctNames, postButton, postForm, secretField, stackedCell, stackedTableHead } from '../layout.js';
import { type DashboardAnswer, type DashboardPage, type DashboardRequest, sentAgain } from '../page.js';
import { actorOf, noticeOf, signedInAccount, timeCell, utcText } from './signed-in-account.js';
import { accountScope } from '../../domain/scope.js';

const PATH = '/account/keys';

const NOTICES: Record<string, string> = {
  revoked: 'The key is revoked: running servers refuse it within 2 seconds.',
  'already-revoked': 'The key was already revoked.',
};

const STATE_WORDS: Record<KeyState, string> = { live: 'Active', revoked: 'Revoked', expired: 'Expired' };

/** Variant B's keys come with its Pro plan (D3); on A every account may have keys. */
const needsPredictionPro = (r: DashboardRequest, account: Account) => r.variant === 'B' && account.predictionPlan !== 'pro';

function assertMayMakeKeys(r: DashboardRequest, account: Account): void {
  if (needsPredictionPro(r, account)) throw forbidden('prediction-market keys come with the Pro prediction plan, which this account does not have yet');
}

/** An expiry date from the form (YYYY-MM-DD): the key stops working at 00:00 UTC that day; empty for none. */
function expiryOf(raw: string | null): number | null {
  const text = (raw ?? '').trim();
  if (text === '') return null;
  const at = /^\d{4}-\d{2}-\d{2}$/.test(text) ? Date.parse(`${text}T00:00:00Z`) : Number.NaN;
  // Date.parse rolls 2025-02-30 over to March: only a date that reads back the same is one.
  if (!Number.isFinite(at) || utcDate(at) !== text) throw invalid('the expiry must be a date, YYYY-MM-DD');
  return at;
}

/** The table of keys; `canRotate` is false where no key may be made (variant B before Pro). */
function keyTable(keys: readonly AccountKey[], now: number, canRotate: boolean) {
  const live = keys.filter((k) => keyState(k, now) === 'live');
  const revokeNames = distinctNames(
    live,
    (k) => k.id,
    (k) => `Revoke ${k.name}`,
  );
  const rotateNames = distinctNames(
    live,
    (k) => k.id,
    (k) => `Rotate ${k.name}`,
  );
  // The page's heading says "API keys": the table keeps it as its accessible name, not as a second title on screen.
  // Below 40rem its rows are stacked cards (CSS display: block), so the table's roles are said explicitly.
  const cell = stackedCell;
  return html`
${stackedTableHead('keys-caption', 'API keys', ['Name', 'Key', 'Created', 'Last used', 'Expires', 'Status', 'Actions'], { titled: true })}
<tbody role="rowgroup">
${
  keys.length === 0
    ? html`<tr role="row"><td role="cell" colspan="7">No keys yet: create your first one below.</td></tr>`
    : keys.map(
        (k) => html`<tr data-key="${k.id}" role="row">
${cell('Name', k.name)}${cell('Key', html`<code>${k.displayPrefix}…</code>`)}${cell('Created', timeCell(k.createdAt))}${cell('Last used', timeCell(k.lastUsedAt))}${cell('Expires', timeCell(k.expiresAt))}${cell('Status', html`<span class="status status-${keyState(k, now)}">${STATE_WORDS[keyState(k, now)]}</span>`)}
${stackedCell(
  'Actions',
  revokeNames.has(k.id)
    ? html`${canRotate ? confirmButton(PATH, 'rotate', k.id, 'Rotate', rotateNames.get(k.id)!) : ''}
${confirmButton(PATH, 'revoke', k.id, 'Revoke', revokeNames.get(k.id)!)}`
    : '',
)}
</tr>`,
      )
}
</tbody>
</table>
<p class="hint">${live.length} of at most ${MAX_LIVE_KEYS_PER_ACCOUNT} live keys. Only the start of each key is kept readable; the key itself was shown once, when it was made.</p>`;
}

/**
 * The key that this form made already, when it is sent again (a reload of the page that showed the
 * key, a second click): a key of that name among those made since the form was shown. A form
 * without `seen` (a script's POST) is not checked.
 */
function madeByThisForm(r: DashboardRequest, keys: readonly AccountKey[], name: string): AccountKey | undefined {
  const seen = r.form.get('seen') ?? '';
  if (!/^\d{1,6}$/.test(seen)) return undefined;
  return keys.slice(Number(seen)).find((k) => k.name === name.trim());
}

function alreadyMade(r: DashboardRequest, key: AccountKey): Promise<DashboardAnswer> {
  return sentAgain(
    keysPage,
    r,
    `This form already made the key "${key.name}" (${key.displayPrefix}…) at ${utcText(key.createdAt)}, and showed it in the answer to that request, once. No other key was made. If you did not copy it, revoke it and make another with the form below.`,
  );
}

function createForm(r: DashboardRequest, seen: number) {
  return html`
<h2>Create a key</h2>
${postForm(
  PATH,
  r.session!.csrfToken,
  { action: 'create', seen: String(seen) },
  html`
<label for="key-name">Key name</label>
<input id="key-name" name="name" type="text" required maxlength="${MAX_KEY_NAME}" autocomplete="off" value="${r.form.get('name') ?? ''}" aria-describedby="key-name-hint">
<p id="key-name-hint" class="hint">Where the key is used, like "laptop" or "production server".</p>
<label for="key-expiry">Expires on (optional)</label>
<input id="key-expiry" name="expires" type="date" value="${r.form.get('expires') ?? ''}" aria-describedby="key-expiry-hint">
<p id="key-expiry-hint" class="hint">The key stops working at 00:00 UTC on this date; leave it empty for a key that does not expire.</p>
<div><button type="submit">Create key</button></div>`,
)}`;
}

function upgradeBody(r: DashboardRequest) {
  const where = r.services.upgradeUrl
    ? html`<a href="${r.services.upgradeUrl}">Get the Pro plan</a>; once it is active, reload this page to create a key.`
    : html`Ask the operator of this gateway to activate the Pro prediction plan on your account; once it is active, reload this page to create a key.`;
  return html`<section aria-labelledby="upgrade-heading">
<h2 id="upgrade-heading">Prediction markets need the Pro plan</h2>
<p>Prediction-market keys come with the Pro plan; this account has no prediction plan yet. ${where}</p>
</section>`;
}

/** The key just made: its only appearance, in a warning panel, with a Copy button and how to use it. */
function newKeyPanel(r: DashboardRequest, issued: IssuedKey) {
  return html`
<section class="warning-panel" aria-labelledby="new-key-heading">
<h2 id="new-key-heading">Copy your new key "${issued.record.name}" now</h2>
<p><strong>This is the only time it is shown.</strong> Only a hash is kept: if you lose it, revoke it and create another. Keep it on a server, never in a web page or an app.</p>
${secretField('new-api-key', 'New API key', issued.key)}
<p class="hint">Send it as <code>Authorization: Bearer &lt;key&gt;</code> on both APIs (prediction markets also take <code>?apikey=</code>), e.g.
<code>curl -H "Authorization: Bearer $KEY" ${r.base}/api/v1/markets</code></p>
</section>`;
}

/** The page's body; `known` the account's keys when the request read them already. */
async function mainBody(r: DashboardRequest, account: Account, top: Html | '' = '', known?: readonly AccountKey[]) {
  const now = r.services.now();
  const keys = known ?? (await listKeys(r.services.store, account));
  const blocked = needsPredictionPro(r, account);
  return html`${top}${blocked ? upgradeBody(r) : ''}
${keyTable(keys, now, !blocked)}
${blocked ? '' : createForm(r, keys.length)}`;
}

/** The page before a revocation or rotation: what happens, and the one button that does it. */
async function confirmation(r: DashboardRequest, account: Account, id: string, what: 'revoke' | 'rotate'): Promise<DashboardAnswer> {
  const keys = await listKeys(r.services.store, account);
  const key = keys.find((k) => k.id === id);
  if (!key || keyState(key, r.services.now()) !== 'live') {
    const body = html`<p><a href="${PATH}">Back to API keys</a></p>`;
    return { html: r.render('API keys', body, { error: `no live key with id ${id} on this account`, section: 'keys' }), status: 404 };
  }
  const token = r.session!.csrfToken;
  const named = html`<strong>${key.name}</strong> (<code>${key.displayPrefix}…</code>)`;
  const body =
    what === 'revoke'
      ? html`<p>Revoke the key ${named}? Running servers refuse it within 2 seconds, on both APIs. This cannot be undone.</p>
${postButton(PATH, token, { action: 'revoke', id: key.id }, 'Revoke key', { kind: 'danger' })}
<p><a href="${PATH}">Keep it</a></p>`
      : html`<p>Rotate the key ${named}? You get a new key with the same name and expiry, shown once.</p>
${postForm(
  PATH,
  token,
  { action: 'rotate', id: key.id, seen: String(keys.length) },
  html`<label><input type="checkbox" name="revokeOld" value="yes" checked> Revoke the old key now (otherwise it keeps working until you revoke it)</label>
<div><button type="submit">Rotate key</button></div>`,
)}
<p><a href="${PATH}">Keep it as it is</a></p>`;
  return { html: r.render(what === 'revoke' ? 'Revoke API key' : 'Rotate API key', body, { section: 'keys' }) };
}

/** The new key, shown once; `keys` the account's keys before it, when this request read them. */
async function shownOnce(r: DashboardRequest, account: Account, issued: IssuedKey, notice: string, keys?: readonly AccountKey[]): Promise<DashboardAnswer> {
  r.form = new URLSearchParams(); // the create form starts empty again
  const after = keys && [...keys, { ...issued.record, lastUsedAt: null }];
  return { html: r.render('API keys', await mainBody(r, account, newKeyPanel(r, issued), after), { notice, section: 'keys' }), status: 201 };
}

export const keysPage: DashboardPage = {
  path: 'keys',
  signedIn: true,
  async get(r, shown) {
    const account = await signedInAccount(r);
    for (const what of ['revoke', 'rotate'] as const) {
      const id = r.url.searchParams.get(what);
      if (id && !shown && (what === 'revoke' || !needsPredictionPro(r, account))) return confirmation(r, account, id, what);
    }
    const extra = { error: shown?.error, notice: shown ? undefined : noticeOf(r, NOTICES), section: 'keys' as const };
    return { html: r.render('API keys', await mainBody(r, account), extra), status: shown?.status ?? 200 };
  },
  actions: {
    async create(r) {
      const account = await signedInAccount(r);
      const now = r.services.now();
      assertMayMakeKeys(r, account);
      const keys = await listKeys(r.services.store, account);
      const made = madeByThisForm(r, keys, r.form.get('name') ?? '');
      if (made) return alreadyMade(r, made);
      const issued = await issueKey(r.services.store, account, { name: r.form.get('name') ?? '', expiresAt: expiryOf(r.form.get('expires')) }, now, actorOf(r));
      return shownOnce(r, account, issued, `The key "${issued.record.name}" is created.`, keys);
    },
    async rotate(r) {
      const account = await signedInAccount(r);
      const now = r.services.now();
      assertMayMakeKeys(r, account);
      const keys = await listKeys(r.services.store, account);
      const old = keys.find((k) => k.id === r.form.get('id'));
      const made = old && madeByThisForm(r, keys, old.name);
      if (made) return alreadyMade(r, made);
      const revokeOld = r.form.get('revokeOld') === 'yes';
      const issued = await rotateKey(r.services.store, r.form.get('id') ?? '', now, actorOf(r), { scope: accountScope(account.id), revokeOld });
      if (revokeOld) r.services.keysRevoked([issued.replaced.id]);
      return shownOnce(
        r,
        account,
        issued,
        `The key "${issued.record.name}" has a replacement${revokeOld ? '; the old key is revoked' : '; the old key works until you revoke it'}.`,
      );
    },
    async revoke(r) {
      const account = await signedInAccount(r);
      const { already, key } = await revokeKey(r.services.store, r.form.get('id') ?? '', r.services.now(), actorOf(r), accountScope(account.id));
      r.services.keysRevoked([key.id]);
      return { redirect: `${PATH}?done=${already ? 'already-revoked' : 'revoked'}` };
    },
  },
};
