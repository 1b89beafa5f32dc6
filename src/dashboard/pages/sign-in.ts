/**
 * Sign in: email and password, then, with two-factor on, the authentication code (or a recovery
 * code). Unknown email and wrong password get the same answer; a throttled attempt is 429 with
 * Retry-After, even with the right password.
 */
import { html } from '../html.js';
import { csrfField } from '../layout.js';
import type { DashboardPage, DashboardRequest } from '../page.js';

const passwordForm = (r: DashboardRequest, email = '') => html`
<form method="post" action="/account/sign-in">
${csrfField(r.formToken)}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${email}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<div><button type="submit">Sign in</button></div>
</form>
<p>No account yet? <a href="/account/sign-up">Create account</a>.</p>
<p><a href="/account/reset">Forgot your password?</a></p>`;

const codeForm = (r: DashboardRequest) => html`
<p>Two-factor sign-in is on for this account: enter the code from your authenticator app, or one of your recovery codes.</p>
<form method="post" action="/account/sign-in">
${csrfField(r.pending!.csrfToken)}
<label for="code">Authentication code</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required>
<div><button type="submit">Sign in</button></div>
</form>`;

/** What a redirect here says happened (fixed texts: nothing from the query string is shown). */
const NOTICES: Record<string, string> = {
  'signed-up':
    'Account created. Next: sign in below with the address and password you chose, then create your first API key. (If the address already had an account, that account is unchanged.)',
  'signed-out': 'You are signed out.',
  reset: 'Your password is changed: sign in with the new one.',
};

export const signInPage: DashboardPage = {
  path: 'sign-in',
  signedIn: false,
  async get(r, shown) {
    if (r.session) return { redirect: '/account/keys' };
    const notice = NOTICES[r.url.searchParams.get('done') ?? ''];
    const body = r.pending ? codeForm(r) : passwordForm(r, r.form.get('email') ?? '');
    return { html: r.render('Sign in', body, { notice, error: shown?.error }), status: shown?.status ?? 200 };
  },
  async post(r) {
    if (r.pending && r.form.has('code')) {
      const outcome = await r.services.accounts.secondFactor(r.pending, r.form.get('code') ?? '', r.client);
      r.setSession(outcome.token);
      return { redirect: '/account/keys' };
    }
    const outcome = await r.services.accounts.signIn({ email: r.form.get('email') ?? '', password: r.form.get('password') ?? '' }, r.client);
    r.setSession(outcome.token);
    return { redirect: outcome.stage === 'signed_in' ? '/account/keys' : '/account/sign-in' };
  },
};

export const signOutPage: DashboardPage = {
  path: 'sign-out',
  signedIn: false,
  async get() {
    return { redirect: '/account/sign-in' };
  },
  async post(r) {
    const session = r.session ?? r.pending;
    if (session) await r.services.accounts.signOut(session, r.client);
    return { redirect: '/account/sign-in?done=signed-out' };
  },
};
