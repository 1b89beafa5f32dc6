/**
 * Security: change password (every other session ends), two-factor sign-in (setup shows the secret
 * as text and as a QR code; the recovery codes once), email confirmation, the person's live
 * sessions (end one, end all others), and the account's activity log.
 */
import { PASSWORD_LENGTH } from '../../dashboard-accounts/index.js';
import { isoOrNull } from '../../domain/time.js';
import { type Html, html, trusted } from '../html.js';
import { csrfField } from '../layout.js';
import type { DashboardAnswer, DashboardPage, DashboardRequest } from '../page.js';

const NOTICES: Record<string, string> = {
  password: 'Your password is changed; every other session has ended.',
  'two-factor-off': 'Two-factor sign-in is off.',
  'session-ended': 'That session has ended.',
  'others-ended': 'Every other session has ended.',
  'verification-sent': 'A confirmation link is on its way to your address.',
};

const when = (ms: number) => isoOrNull(ms)!.replace('T', ' ').slice(0, 19);

/** A short description of a browser from its User-Agent, for the sessions table. */
function browserOf(userAgent: string): string {
  const found = /(Firefox|Edg|Chrome|Safari|curl|HeadlessChrome)\/[\d.]+/.exec(userAgent);
  return found ? found[0] : userAgent.slice(0, 40) || 'unknown';
}

async function render(r: DashboardRequest, shown?: { error?: string; status?: number }, extra?: Html, notice?: string): Promise<DashboardAnswer> {
  const session = r.session!;
  const { accounts, sessions, store } = r.services;
  const user = await accounts.user(session);
  const [live, activity] = await Promise.all([sessions.listLive(user.id), store.activity.list(session.accountId, 50)]);
  const csrf = csrfField(session.csrfToken);
  const twoFactor =
    user.totpEnabledAt !== null
      ? html`<p>Two-factor sign-in is <strong>on</strong> (since ${when(user.totpEnabledAt)}).</p>
<form method="post" action="/account/security">${csrf}<input type="hidden" name="action" value="totp-disable">
<label for="totp-password">Password to turn off two-factor</label>
<input id="totp-password" name="password" type="password" autocomplete="current-password" required>
<div><button type="submit" class="danger">Turn off two-factor</button></div></form>`
      : html`<p>Two-factor sign-in is <strong>off</strong>. With it on, signing in also asks for a code from an authenticator app.</p>
<form method="post" action="/account/security">${csrf}<input type="hidden" name="action" value="totp-begin">
<button type="submit">Set up two-factor</button></form>`;
  const email =
    user.emailVerifiedAt !== null
      ? html`<p>Email: ${user.email} (confirmed).</p>`
      : html`<p>Email: ${user.email} (not confirmed).</p>${
          accounts.mailEnabled
            ? html`<form method="post" action="/account/security">${csrf}<input type="hidden" name="action" value="resend-verification"><button type="submit" class="secondary">Send confirmation email</button></form>`
            : ''
        }`;
  const body = html`
${extra ?? ''}
<section aria-labelledby="password-heading">
<h2 id="password-heading">Password</h2>
<form method="post" action="/account/security">${csrf}<input type="hidden" name="action" value="password">
<input type="text" name="username" autocomplete="username" value="${session.email}" hidden>
<label for="current-password">Current password</label>
<input id="current-password" name="current" type="password" autocomplete="current-password" required>
<label for="new-password">New password</label>
<input id="new-password" name="next" type="password" autocomplete="new-password" required minlength="${PASSWORD_LENGTH.min}" maxlength="${PASSWORD_LENGTH.max}" aria-describedby="new-password-hint">
<p id="new-password-hint" class="hint">${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters. Every other session ends.</p>
<div><button type="submit">Change password</button></div>
</form>
${email}
</section>
<section aria-labelledby="two-factor-heading">
<h2 id="two-factor-heading">Two-factor sign-in</h2>
${twoFactor}
</section>
<section aria-labelledby="sessions-heading">
<h2 id="sessions-heading">Sessions</h2>
<table class="titled-by-page">
<caption>Sessions</caption>
<thead><tr><th scope="col">Started</th><th scope="col">Last seen</th><th scope="col">Client address</th><th scope="col">Browser</th><th scope="col">Action</th></tr></thead>
<tbody>
${live.map(
  (s) =>
    html`<tr><td>${when(s.createdAt)}</td><td>${when(s.lastSeenAt)}</td><td>${s.clientAddress}</td><td>${browserOf(s.userAgent)}</td><td>${
      s.idHash === session.idHash
        ? 'This session'
        : html`<form method="post" action="/account/security">${csrf}<input type="hidden" name="action" value="end-session"><input type="hidden" name="session" value="${s.idHash}"><button type="submit" class="secondary">End session from ${s.clientAddress} started ${when(s.createdAt)}</button></form>`
    }</td></tr>`,
)}
</tbody>
</table>
${live.length > 1 ? html`<form method="post" action="/account/security">${csrf}<input type="hidden" name="action" value="end-others"><button type="submit" class="danger">End all other sessions</button></form>` : ''}
</section>
<section aria-labelledby="activity-heading">
<h2 id="activity-heading">Activity</h2>
<table>
<caption>Account activity</caption>
<thead><tr><th scope="col">Time (UTC)</th><th scope="col">Event</th><th scope="col">Detail</th><th scope="col">Client address</th></tr></thead>
<tbody>
${activity.map((e) => html`<tr><td>${when(e.at)}</td><td>${e.kind.replaceAll('_', ' ')}</td><td>${e.detail}</td><td>${e.clientAddress ?? 'operator (CLI)'}</td></tr>`)}
</tbody>
</table>
</section>`;
  return {
    html: r.render('Security', body, { section: 'security', error: shown?.error, notice: notice ?? NOTICES[r.url.searchParams.get('done') ?? ''] }),
    status: shown?.status ?? 200,
  };
}

export const securityPage: DashboardPage = {
  path: 'security',
  signedIn: true,
  get: (r, shown) => render(r, shown),
  actions: {
    async password(r) {
      const { token } = await r.services.accounts.changePassword(
        r.session!,
        { current: r.form.get('current') ?? '', next: r.form.get('next') ?? '' },
        r.client,
      );
      r.setSession(token);
      return { redirect: '/account/security?done=password' };
    },
    async 'totp-begin'(r) {
      const setup = await r.services.accounts.beginTwoFactor(r.session!);
      const extra = html`<section aria-labelledby="setup-heading">
<h2 id="setup-heading">Set up two-factor sign-in</h2>
<p>Scan this code with an authenticator app, or type the secret into it; then enter the code it shows.</p>
<div class="qr" role="img" aria-label="QR code of the two-factor secret">${trusted(setup.qrSvg)}</div>
<label for="totp-secret">Two-factor secret</label>
<input id="totp-secret" type="text" readonly class="secret" value="${setup.secret}">
<form method="post" action="/account/security">${csrfField(r.session!.csrfToken)}<input type="hidden" name="action" value="totp-confirm">
<label for="totp-code">Authentication code</label>
<input id="totp-code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required>
<div><button type="submit">Turn on two-factor</button></div></form>
</section>`;
      return render(r, undefined, extra);
    },
    async 'totp-confirm'(r) {
      const codes = await r.services.accounts.confirmTwoFactor(r.session!, r.form.get('code') ?? '', r.client);
      const extra = html`<section aria-labelledby="codes-heading">
<h2 id="codes-heading">Recovery codes</h2>
<p>Each code signs you in once if you lose your authenticator. They are shown only now: keep them somewhere safe.</p>
<label for="recovery-codes">Recovery codes</label>
<textarea id="recovery-codes" readonly rows="${codes.length}" class="secret">${codes.join('\n')}</textarea>
<button type="button" data-copy="recovery-codes">Copy</button>
</section>`;
      return render(r, undefined, extra, 'Two-factor sign-in is on.');
    },
    async 'totp-disable'(r) {
      await r.services.accounts.disableTwoFactor(r.session!, r.form.get('password') ?? '', r.client);
      return { redirect: '/account/security?done=two-factor-off' };
    },
    async 'end-session'(r) {
      await r.services.accounts.endSession(r.session!, r.form.get('session') ?? '', r.client);
      return { redirect: '/account/security?done=session-ended' };
    },
    async 'end-others'(r) {
      await r.services.accounts.endOtherSessions(r.session!, r.client);
      return { redirect: '/account/security?done=others-ended' };
    },
    async 'resend-verification'(r) {
      await r.services.accounts.resendVerification(r.session!, r.base);
      return { redirect: '/account/security?done=verification-sent' };
    },
  },
};
