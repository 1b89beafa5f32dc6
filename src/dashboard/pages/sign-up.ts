/**
 * Create account, as PORTAL_SIGNUP allows: `open` (a Free account on A, no B plan), `invite` (only
 * with a link from `accounts invite`), `closed`. Whether the address was free is never said: the
 * same page follows either way, and the owner of a taken address gets a mail when SMTP is set.
 */
import { PASSWORD_LENGTH } from '../../dashboard-accounts/index.js';
import { html } from '../html.js';
import { csrfField } from '../layout.js';
import type { DashboardPage } from '../page.js';

export const signUpPage: DashboardPage = {
  path: 'sign-up',
  signedIn: false,
  async get(r, shown) {
    const { accounts } = r.services;
    const invite = r.url.searchParams.get('invite') ?? r.form.get('invite') ?? undefined;
    if (accounts.signupMode === 'closed') {
      return {
        html: r.render('Create account', html`<p>Sign-up is closed on this gateway: ask its operator for an account.</p>`, { error: shown?.error }),
        status: shown?.status ?? 200,
      };
    }
    const invitedEmail = invite ? await accounts.invitation(invite) : undefined;
    if (accounts.signupMode === 'invite' && !invitedEmail) {
      const body = html`<p>Sign-up on this gateway needs an invitation link from its operator. This link is missing, used or expired.</p>`;
      return { html: r.render('Create account', body, { error: shown?.error }), status: shown?.status ?? 200 };
    }
    const body = html`
<form method="post" action="/account/sign-up">
${csrfField(r.formToken)}
${invite ? html`<input type="hidden" name="invite" value="${invite}">` : ''}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required${invitedEmail ? html` readonly value="${invitedEmail}"` : html` value="${r.form.get('email') ?? ''}"`}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="${PASSWORD_LENGTH.min}" maxlength="${PASSWORD_LENGTH.max}" aria-describedby="password-hint">
<p id="password-hint" class="hint">${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters.</p>
<div><button type="submit">Create account</button></div>
</form>
<p>Have an account? <a href="/account/sign-in">Sign in</a>.</p>`;
    return { html: r.render('Create account', body, { error: shown?.error }), status: shown?.status ?? 200 };
  },
  async post(r) {
    await r.services.accounts.signUp(
      { email: r.form.get('email') ?? '', password: r.form.get('password') ?? '', invite: r.form.get('invite') ?? undefined },
      r.client,
      r.base,
    );
    return { redirect: '/account/sign-in?done=signed-up' };
  },
};
