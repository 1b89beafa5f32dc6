/**
 * Forgotten password: with SMTP, a reset link by mail (the same answer whether or not the address
 * has an account); without it, the operator gives a one-time link (`accounts reset-link`). The link
 * opens a form for the new password; using it ends every session of the account.
 */
import { PASSWORD_LENGTH } from '../../dashboard-accounts/index.js';
import { html } from '../html.js';
import { csrfField } from '../layout.js';
import type { DashboardPage } from '../page.js';

export const resetPage: DashboardPage = {
  path: 'reset',
  signedIn: false,
  async get(r, shown) {
    const token = r.url.searchParams.get('token') ?? r.form.get('token') ?? undefined;
    const extra = { error: shown?.error };
    if (token) {
      if (!(await r.services.accounts.resetIsValid(token))) {
        return {
          html: r.render('Reset password', html`<p>This reset link is used, expired or unknown: ask for a new one.</p>`, extra),
          status: shown?.status ?? 404,
        };
      }
      const body = html`
<form method="post" action="/account/reset">
${csrfField(r.formToken)}
<input type="hidden" name="token" value="${token}">
<label for="password">New password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="${PASSWORD_LENGTH.min}" maxlength="${PASSWORD_LENGTH.max}">
<div><button type="submit">Set password</button></div>
</form>`;
      return { html: r.render('Reset password', body, extra), status: shown?.status ?? 200 };
    }
    if (!r.services.accounts.mailEnabled) {
      const body = html`<p>This gateway sends no mail: ask its operator for a reset link (<code>accounts reset-link &lt;email&gt;</code>).</p>`;
      return { html: r.render('Reset password', body, extra), status: shown?.status ?? 200 };
    }
    const notice = r.url.searchParams.get('done') === 'sent' ? 'If that address has an account, a reset link is on its way.' : undefined;
    const body = html`
<form method="post" action="/account/reset">
${csrfField(r.formToken)}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required>
<div><button type="submit">Send reset link</button></div>
</form>`;
    return { html: r.render('Reset password', body, { ...extra, notice }), status: shown?.status ?? 200 };
  },
  async post(r) {
    const token = r.form.get('token');
    if (token) {
      await r.services.accounts.resetPassword(token, r.form.get('password') ?? '', r.client);
      return { redirect: '/account/sign-in?done=reset' };
    }
    await r.services.accounts.requestReset(r.form.get('email') ?? '', r.base);
    return { redirect: '/account/reset?done=sent' };
  },
};

export const verifyPage: DashboardPage = {
  path: 'verify',
  signedIn: false,
  async get(r) {
    const ok = await r.services.accounts.verifyEmail(r.url.searchParams.get('token') ?? '', r.client);
    const body = ok
      ? html`<p>Your email address is confirmed.</p><p><a href="/account">Go to your account</a></p>`
      : html`<p>This link is used, expired or unknown.</p>`;
    return { html: r.render('Confirm email', body), status: ok ? 200 : 404 };
  },
};
