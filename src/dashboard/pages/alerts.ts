/**
 * Price alerts (D11, variant A market data, Pro and up): the account's alerts exactly as
 * `GET /api/v1/alerts` lists them (the same read model and status filter), a form to create one
 * through the rules of the CLI and the `createPriceAlert` mutation, and a button to cancel each
 * active one. A Free account is told how to get the plan; its writes are refused (403).
 */
import { assertAlertsPlan, cancelPriceAlert, createPriceAlert } from '../../alerts/create-alert.js';
import { BRIEF_SIGNALS, type BriefSignal } from '../../analytics/signals.js';
import { ALERT_KINDS, ALERT_STATUSES, type Account, type AlertKind, type AlertStatus, type PriceAlert } from '../../domain/account.js';
import { invalid } from '../../domain/errors.js';
import { html } from '../html.js';
import { distinctNames, postButton, postForm } from '../layout.js';
import type { DashboardPage, DashboardRequest } from '../page.js';
import { noticeOf, signedInAccount, timeCell } from './signed-in-account.js';

const PATH = '/account/alerts';

/** Each kind in words: the form's choice, and how a row's cancel button names the condition. */
const CONDITIONS: Record<AlertKind, { choice: string; words: (a: PriceAlert) => string }> = {
  price_above: { choice: 'Price at or above the threshold', words: (a) => `above ${a.threshold}` },
  price_below: { choice: 'Price at or below the threshold', words: (a) => `below ${a.threshold}` },
  change_above: { choice: '24-hour change, up or down, of at least the threshold (percent)', words: (a) => `24-hour change of ${a.threshold} % or more` },
  signal: { choice: 'A brief signal appears (choose the signal)', words: (a) => `signal ${signalWords(a.signal)}` },
};

/** The brief's signals as people say them (docs/brief-method.md); the API keeps the names. */
export const SIGNAL_WORDS: Record<BriefSignal, string> = {
  rsi_overbought: 'RSI overbought (RSI 14 above 70)',
  rsi_oversold: 'RSI oversold (RSI 14 below 30)',
  macd_bullish_cross: 'MACD crossed above its signal line',
  macd_bearish_cross: 'MACD crossed below its signal line',
  golden_cross: 'Golden cross (SMA 20 crossed above SMA 50)',
  death_cross: 'Death cross (SMA 20 crossed below SMA 50)',
  above_sma50: 'Price above its 50-period average',
  below_sma50: 'Price below its 50-period average',
  bollinger_breakout_up: 'Price above the upper Bollinger band',
  bollinger_breakout_down: 'Price below the lower Bollinger band',
  volume_spike: 'Volume spike (over twice the recent average)',
};

const signalWords = (signal: string | null) => (signal && signal in SIGNAL_WORDS ? SIGNAL_WORDS[signal as BriefSignal] : (signal ?? ''));

const STATUS_WORDS: Record<AlertStatus, string> = { active: 'Active', triggered: 'Triggered', expired: 'Expired' };

const NOTICES: Record<string, string> = {
  created: 'The alert is created.',
  cancelled: 'The alert is cancelled.',
};

/** The status filter of the query string, as the REST route reads `?status=`: none, or one of ALERT_STATUSES. */
function statusFilter(r: DashboardRequest): { status: AlertStatus | undefined } | { error: string } {
  const raw = r.url.searchParams.get('status');
  if (raw === null || raw === '' || raw === 'all') return { status: undefined };
  if ((ALERT_STATUSES as readonly string[]).includes(raw)) return { status: raw as AlertStatus };
  return { error: `status must be one of ${ALERT_STATUSES.join(', ')}` };
}

/** Each row's cancel button names its alert; two alike get the id too, so every name is unique. */
const cancelNames = (alerts: readonly PriceAlert[]) =>
  distinctNames(
    alerts,
    (a) => a.id,
    (a) => `Cancel alert on ${a.symbol} ${CONDITIONS[a.kind].words(a)}`,
  );

function alertTable(r: DashboardRequest, alerts: readonly PriceAlert[]) {
  const names = cancelNames(alerts.filter((a) => a.status === 'active'));
  return html`
<table>
<caption>Price alerts</caption>
<thead><tr><th scope="col">Symbol</th><th scope="col">Condition</th><th scope="col">Threshold</th><th scope="col">Status</th><th scope="col">Created</th><th scope="col">Triggered</th><th scope="col">Cancel</th></tr></thead>
<tbody>
${alerts.map(
  (a) => html`<tr data-alert="${a.id}">
<td>${a.symbol}</td><td>${CONDITIONS[a.kind].choice}</td><td>${a.kind === 'signal' ? signalWords(a.signal) : a.threshold}</td><td>${STATUS_WORDS[a.status]}</td><td>${timeCell(a.createdAt)}</td><td>${timeCell(a.triggeredAt)}</td>
<td>${names.has(a.id) ? postButton(PATH, r.session!.csrfToken, { action: 'cancel', id: a.id }, 'Cancel', { label: names.get(a.id)! }) : ''}</td>
</tr>`,
)}
</tbody>
</table>`;
}

function filterForm(current: AlertStatus | undefined) {
  return html`
<form method="get" action="${PATH}">
<label for="status-filter">Status</label>
<select id="status-filter" name="status">
<option value="all"${current === undefined ? html` selected` : ''}>All</option>
${ALERT_STATUSES.map((s) => html`<option value="${s}"${current === s ? html` selected` : ''}>${STATUS_WORDS[s]}</option>`)}
</select>
<button type="submit" class="secondary">Show</button>
</form>`;
}

async function createForm(r: DashboardRequest) {
  const markets = await r.services.store.markets.listMarkets();
  const kind = r.form.get('kind') ?? 'price_above';
  const signal = r.form.get('signal') ?? '';
  return html`
<h2>Create an alert</h2>
${postForm(
  PATH,
  r.session!.csrfToken,
  { action: 'create' },
  html`
<label for="symbol">Symbol</label>
<input id="symbol" name="symbol" type="text" required maxlength="64" list="symbols" autocomplete="off" value="${r.form.get('symbol') ?? ''}" aria-describedby="symbol-hint">
<datalist id="symbols">${markets.map((m) => html`<option value="${m.symbol}">${m.name}</option>`)}</datalist>
<p id="symbol-hint" class="hint">A market-data symbol, like BTC/USD.</p>
<label for="kind">Condition</label>
<select id="kind" name="kind">
${ALERT_KINDS.map((k) => html`<option value="${k}"${k === kind ? html` selected` : ''}>${CONDITIONS[k].choice}</option>`)}
</select>
<label for="threshold">Threshold</label>
<input id="threshold" name="threshold" type="text" inputmode="decimal" autocomplete="off" value="${r.form.get('threshold') ?? ''}" aria-describedby="threshold-hint">
<p id="threshold-hint" class="hint">A price in the market's quote currency, or a percent for the 24-hour change; empty for a signal.</p>
<label for="signal">Signal</label>
<select id="signal" name="signal" aria-describedby="signal-hint">
<option value=""${signal === '' ? html` selected` : ''}>None</option>
${BRIEF_SIGNALS.map((s) => html`<option value="${s}"${s === signal ? html` selected` : ''}>${SIGNAL_WORDS[s]}</option>`)}
</select>
<p id="signal-hint" class="hint">Only for the signal condition.</p>
<div><button type="submit">Create alert</button></div>`,
)}`;
}

function upgradeBody(account: Account) {
  return html`<p>Price alerts need the Pro or Enterprise market-data plan; this account is on the ${account.marketDataPlan} plan.</p>
<p>To upgrade, ask the operator of this gateway to move the account to the Pro market-data plan; this page then lets you create alerts.</p>`;
}

/** A number from the form; anything else becomes NaN, which the rule refuses with its own message. */
const thresholdOf = (raw: string | null) => (raw === null || raw.trim() === '' ? null : Number(raw.trim()));

export const alertsPage: DashboardPage = {
  path: 'alerts',
  signedIn: true,
  async get(r, shown) {
    const account = await signedInAccount(r);
    const extra = { error: shown?.error, notice: shown ? undefined : noticeOf(r, NOTICES), section: 'alerts' as const };
    if (account.marketDataPlan === 'free') return { html: r.render('Alerts', upgradeBody(account), extra), status: shown?.status ?? 200 };
    const filter = statusFilter(r);
    if ('error' in filter) {
      return { html: r.render('Alerts', html`${filterForm(undefined)}${await createForm(r)}`, { ...extra, error: filter.error }), status: 400 };
    }
    const alerts = await r.services.accountAlerts.list(account.id, { status: filter.status });
    const list = alerts.length > 0 ? alertTable(r, alerts) : html`<p>${filter.status ? `No ${filter.status} alerts.` : 'No alerts yet.'}</p>`;
    const body = html`
<p>Each alert fires once, the first time a new quote meets its condition; Enterprise accounts also receive it by <a href="/account/webhooks">webhook</a>.</p>
${filterForm(filter.status)}
${list}
${await createForm(r)}`;
    return { html: r.render('Alerts', body, extra), status: shown?.status ?? 200 };
  },
  async assertMayPost(r) {
    assertAlertsPlan(await signedInAccount(r));
  },
  actions: {
    async create(r) {
      const account = await signedInAccount(r);
      const kind = r.form.get('kind') ?? '';
      if (!(ALERT_KINDS as readonly string[]).includes(kind)) throw invalid('choose a condition');
      const alert = await createPriceAlert(
        r.services.store,
        account,
        { symbol: r.form.get('symbol') ?? '', kind: kind as AlertKind, threshold: thresholdOf(r.form.get('threshold')), signal: r.form.get('signal') || null },
        r.services.now(),
      );
      r.services.accountAlerts.changed(alert.accountId);
      return { redirect: `${PATH}?done=created` };
    },
    async cancel(r) {
      const account = await signedInAccount(r);
      const cancelled = await cancelPriceAlert(r.services.store, account.id, r.form.get('id') ?? '');
      r.services.accountAlerts.changed(cancelled.accountId);
      return { redirect: `${PATH}?done=cancelled` };
    },
  },
};
