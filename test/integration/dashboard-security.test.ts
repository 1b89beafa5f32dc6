/**
 * The account dashboard's security promises over plain HTTP: cross-site writes refused
 * with nothing changed, the sign-in throttle, the same answer for an unknown email and a wrong
 * password, cookie flags, a new session id at sign-in, ended sessions refused (sign-out, idle and
 * absolute timeouts, password change, disabled account), a CSP without inline script, two-factor
 * sign-in with recovery codes, and the sign-up modes with the CLI's invitations and reset links.
 */
import { generate } from 'otplib';
import supertest from 'supertest';
import { MINUTE_MS } from '../../src/domain/time.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { csrfOf, signedUpAgent, submit } from '../support/dashboard.js';
import { closeAll, midMinute, startTestService, TestClock, type TestService } from '../support/service.js';

const PASSWORD = 'correct horse battery staple';
let t: TestService;
let clock: TestClock;

beforeAll(async () => {
  clock = new TestClock(midMinute());
  t = await startTestService({ clock });
});
afterAll(() => closeAll(t));

const cookieOf = (res: supertest.Response, name: string) => ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${name}=`));
const sessionValue = (res: supertest.Response) => cookieOf(res, 'mgw_session')?.split(';')[0]?.split('=')[1];
const userOf = (email: string) => t.service.store.users.findByEmail(email);

describe('writes from another site', () => {
  it('a cross-site sign-up, password change or sign-out is refused (403) and changes nothing', async () => {
    const fresh = supertest.agent(t.urls.a);
    const form = await fresh.get('/account/sign-up');
    for (const headers of [{ Origin: 'https://evil.example' }, { 'Sec-Fetch-Site': 'cross-site' }, { 'Sec-Fetch-Site': 'same-site' }]) {
      const res = await fresh
        .post('/account/sign-up')
        .set(headers)
        .type('form')
        .send({ csrf: csrfOf(form.text), email: 'victim@example.com', password: PASSWORD });
      expect(res.status).toBe(403);
      expect(res.text).toContain('came from another site');
    }
    expect(await userOf('victim@example.com')).toBeUndefined();
    // Without Sec-Fetch-Site (older browsers), a hidden origin (`null`: a sandboxed frame) is refused too;
    // with it, a same-origin form is accepted whatever Origin says (Chromium sends `null` under no-referrer).
    const hidden = await fresh
      .post('/account/sign-up')
      .set('Origin', 'null')
      .type('form')
      .send({ csrf: csrfOf(form.text), email: 'victim@example.com', password: PASSWORD });
    expect(hidden.status).toBe(403);
    const sameOrigin = await fresh
      .post('/account/sign-up')
      .set({ Origin: 'null', 'Sec-Fetch-Site': 'same-origin' })
      .type('form')
      .send({ csrf: csrfOf(form.text), email: 'welcome@example.com', password: PASSWORD });
    expect(sameOrigin.status).toBe(303);

    const agent = await signedUpAgent(t.urls.a, 'xsite@example.com');
    const before = (await userOf('xsite@example.com'))!.passwordHash;
    const page = await agent.get('/account/security');
    const changed = await agent
      .post('/account/security')
      .set('Origin', 'https://evil.example')
      .type('form')
      .send({ csrf: csrfOf(page.text), action: 'password', current: PASSWORD, next: 'attacker chosen password' });
    expect(changed.status).toBe(403);
    expect((await userOf('xsite@example.com'))!.passwordHash).toBe(before);
    // Same site, without the form's token: refused too.
    const noToken = await agent.post('/account/security').type('form').send({ action: 'end-others' });
    expect(noToken.status).toBe(403);
    expect((await agent.get('/account/security')).status).toBe(200); // still signed in
  });
});

describe("a form's token", () => {
  it("another session's token, a wrong one or an empty one: 403, nothing changed, still signed in; the session's own goes through", async () => {
    const mine = await signedUpAgent(t.urls.a, 'token-mine@example.com');
    const theirs = await signedUpAgent(t.urls.a, 'token-theirs@example.com');
    const before = (await userOf('token-mine@example.com'))!.passwordHash;
    const change = (csrf: string) =>
      mine.post('/account/security').type('form').send({ csrf, action: 'password', current: PASSWORD, next: 'a new password for this account' });
    const theirToken = csrfOf((await theirs.get('/account/security')).text);
    const myToken = csrfOf((await mine.get('/account/security')).text);
    expect(theirToken).not.toBe(myToken);
    for (const csrf of [theirToken, `${myToken.slice(0, -1)}${myToken.endsWith('A') ? 'B' : 'A'}`, 'x'.repeat(myToken.length), '']) {
      const refused = await change(csrf);
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('the form is out of date or did not come from this site');
      expect((await userOf('token-mine@example.com'))!.passwordHash).toBe(before);
    }
    expect((await mine.get('/account/security')).status).toBe(200); // still signed in
    expect((await change(myToken)).status).toBeLessThan(400);
    expect((await userOf('token-mine@example.com'))!.passwordHash).not.toBe(before);
  });

  it("signed out: another visitor's form token is refused (403) and makes no account", async () => {
    const visitor = supertest.agent(t.urls.a);
    const other = supertest.agent(t.urls.a);
    await visitor.get('/account/sign-up');
    const otherToken = csrfOf((await other.get('/account/sign-up')).text);
    const refused = await visitor.post('/account/sign-up').type('form').send({ csrf: otherToken, email: 'token-visitor@example.com', password: PASSWORD });
    expect(refused.status).toBe(403);
    expect(await userOf('token-visitor@example.com')).toBeUndefined();
  });
});

describe('sign-in', () => {
  it('an unknown email and a wrong password get the same answer after the same work', async () => {
    await signedUpAgent(t.urls.a, 'known@example.com');
    const attempt = async (email: string) => {
      const agent = supertest.agent(t.urls.a);
      const started = performance.now();
      const res = await submit(agent, '/account/sign-in', { email, password: 'not the password at all' });
      return { res, ms: performance.now() - started };
    };
    const wrong = [];
    const unknown = [];
    for (let i = 0; i < 5; i++) {
      wrong.push(await attempt('known@example.com'));
      unknown.push(await attempt(`nobody${i}@example.com`));
    }
    const normalize = (text: string) => text.replace(/value="[^"]*"/g, 'value=""');
    expect(unknown[0]!.res.status).toBe(400);
    expect(wrong[0]!.res.status).toBe(400);
    expect(normalize(unknown[0]!.res.text)).toBe(normalize(wrong[0]!.res.text));
    expect(wrong[0]!.res.text).toContain('the email or the password is wrong');
    // Both run argon2 (the unknown email against a decoy hash): without the decoy it answers ~50 times faster.
    const median = (xs: { ms: number }[]) => xs.map((x) => x.ms).sort((a, b) => a - b)[2]!;
    expect(median(unknown)).toBeGreaterThan(median(wrong) / 3);
  });

  it('10 failures for an email block it for 15 minutes, the right password too, with Retry-After', async () => {
    await signedUpAgent(t.urls.a, 'guessed@example.com');
    const agent = supertest.agent(t.urls.a);
    for (let i = 0; i < 10; i++)
      expect((await submit(agent, '/account/sign-in', { email: 'guessed@example.com', password: `guess number ${i}` })).status).toBe(400);
    const right = await submit(agent, '/account/sign-in', { email: 'guessed@example.com', password: PASSWORD });
    expect(right.status).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(800);
    expect(Number(right.headers['retry-after'])).toBeLessThanOrEqual(900);
    expect(sessionValue(right)).toBeUndefined();
    // The same answer for an email nobody has, blocked the same way (nothing tells them apart).
    for (let i = 0; i < 10; i++) await submit(agent, '/account/sign-in', { email: 'ghost@example.com', password: `guess number ${i}` });
    expect((await submit(agent, '/account/sign-in', { email: 'ghost@example.com', password: PASSWORD })).status).toBe(429);
  });

  it('the session cookie is HttpOnly, SameSite=Strict, under /account; a new id at sign-in; a planted id is worth nothing', async () => {
    await signedUpAgent(t.urls.a, 'fixation@example.com');
    const agent = supertest.agent(t.urls.a);
    const planted = 'AttackerChosenSessionIdAttackerChosenSessionId0';
    const res = await submit(agent.set('Cookie', `mgw_session=${planted}`), '/account/sign-in', { email: 'fixation@example.com', password: PASSWORD });
    expect(res.status).toBe(303);
    const cookie = cookieOf(res, 'mgw_session')!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/account/);
    expect(cookie).not.toMatch(/Secure/); // http:// here; PORTAL_PUBLIC_URL https makes it Secure (below)
    expect(sessionValue(res)).not.toBe(planted);
    const withPlanted = await supertest(t.urls.a).get('/account/security').set('Cookie', `mgw_session=${planted}`);
    expect(withPlanted.status).toBe(303);
    expect(withPlanted.headers.location).toBe('/account/sign-in');
  });

  it('pages carry the CSP: scripts and styles from this origin only, no inline script', async () => {
    const res = await supertest(t.urls.b).get('/account/sign-in');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.text).not.toMatch(/<script>(?!<\/script>)|<script(?![^>]*\bsrc=)[^>]*>/);
    expect(res.text).not.toMatch(/\son[a-z]+=/);
  });
});

describe('sessions end', () => {
  it('on sign-out: the old cookie is refused', async () => {
    await signedUpAgent(t.urls.a, 'leaving@example.com');
    const agent = supertest.agent(t.urls.a);
    const cookie = `mgw_session=${sessionValue(await submit(agent, '/account/sign-in', { email: 'leaving@example.com', password: PASSWORD }))}`;
    const page = await agent.get('/account/security');
    const out = await agent
      .post('/account/sign-out')
      .type('form')
      .send({ csrf: csrfOf(page.text) });
    expect(out.status).toBe(303);
    const replay = await supertest(t.urls.a).get('/account/security').set('Cookie', cookie);
    expect(replay.status).toBe(303);
    expect(replay.headers.location).toBe('/account/sign-in');
  });

  it('after the idle timeout and after the absolute one', async () => {
    const idle = await signedUpAgent(t.urls.a, 'idle@example.com');
    clock.advance(29 * MINUTE_MS);
    expect((await idle.get('/account/security')).status).toBe(200);
    clock.advance(31 * MINUTE_MS);
    expect((await idle.get('/account/security')).status).toBe(303);

    // Busy all along (a request every 20 minutes): still ended 12 hours after sign-in.
    const busy = await signedUpAgent(t.urls.a, 'busy@example.com');
    for (let step = 1; step < 36; step++) {
      clock.advance(20 * MINUTE_MS);
      expect((await busy.get('/account/security')).status).toBe(200);
    }
    clock.advance(20 * MINUTE_MS);
    expect((await busy.get('/account/security')).status).toBe(303);
  });

  it('on a password change, everywhere but the browser that changed it, which gets a new id', async () => {
    const one = await signedUpAgent(t.urls.a, 'change@example.com');
    const two = supertest.agent(t.urls.a);
    await submit(two, '/account/sign-in', { email: 'change@example.com', password: PASSWORD });
    expect((await two.get('/account/security')).status).toBe(200);
    const changed = await submit(one, '/account/security', { action: 'password', current: PASSWORD, next: 'a brand new long password' });
    expect(changed.status).toBe(303);
    expect(sessionValue(changed)).toBeDefined();
    expect((await one.get('/account/security')).status).toBe(200);
    expect((await two.get('/account/security')).status).toBe(303);
    const wrongCurrent = await submit(one, '/account/security', { action: 'password', current: 'not my password', next: 'another long password' });
    expect(wrongCurrent.status).toBe(400);
    expect(wrongCurrent.text).toContain('the current password is wrong');
  });

  it('when the operator disables the account (CLI); sign-in is refused while it is disabled', async () => {
    const agent = await signedUpAgent(t.urls.a, 'disabled@example.com');
    const result = await runCliInProcess(['accounts', 'disable', 'disabled@example.com'], { DATA_DIR: t.dataDir });
    expect(result.code).toBe(0);
    expect((await agent.get('/account/security')).status).toBe(303);
    const again = await submit(supertest.agent(t.urls.a), '/account/sign-in', { email: 'disabled@example.com', password: PASSWORD });
    expect(again.status).toBe(403);
    expect(again.text).toContain('this account is disabled');
  });

  it('one at a time from the Security page, which lists them and the activity log', async () => {
    const one = await signedUpAgent(t.urls.a, 'many@example.com');
    const two = supertest.agent(t.urls.a);
    await submit(two, '/account/sign-in', { email: 'many@example.com', password: PASSWORD });
    const page = await one.get('/account/security');
    expect(page.text).toContain('<caption>Sessions</caption>');
    expect(page.text).toContain('<caption>Account activity</caption>');
    expect(page.text).toMatch(/signed up|sign in/);
    const other = /name="session" value="([0-9a-f]{64})"/.exec(page.text)![1]!;
    expect(
      (
        await one
          .post('/account/security')
          .type('form')
          .send({ csrf: csrfOf(page.text), action: 'end-session', session: other })
      ).status,
    ).toBe(303);
    expect((await two.get('/account/security')).status).toBe(303);
    // Another person's session id is not this person's to end.
    const stranger = await signedUpAgent(t.urls.a, 'stranger@example.com');
    const strangerPage = await stranger.get('/account/security');
    const mine = await one.get('/account/security');
    const refused = await stranger
      .post('/account/security')
      .type('form')
      .send({ csrf: csrfOf(strangerPage.text), action: 'end-session', session: /value="([0-9a-f]{64})"/.exec(mine.text)?.[1] ?? 'x'.repeat(64) });
    expect(refused.status).toBe(400);
    expect((await one.get('/account/security')).status).toBe(200);
  });
});

describe('two-factor sign-in', () => {
  it('setup shows the secret as text and QR, a code turns it on, sign-in then asks for the code; a recovery code works once', async () => {
    const agent = await signedUpAgent(t.urls.a, 'totp@example.com');
    const begun = await submit(agent, '/account/security', { action: 'totp-begin' });
    expect(begun.status).toBe(200);
    const secret = /id="totp-secret" type="text" readonly class="secret" value="([A-Z2-7]+)"/.exec(begun.text)![1]!;
    expect(begun.text).toContain('<svg');
    const confirmed = await agent
      .post('/account/security')
      .type('form')
      .send({ csrf: csrfOf(begun.text), action: 'totp-confirm', code: await generate({ secret }) });
    expect(confirmed.status).toBe(200);
    const codes = /<textarea id="recovery-codes"[^>]*>([^<]+)<\/textarea>/.exec(confirmed.text)![1]!.split('\n');
    expect(codes).toHaveLength(10);

    const browser = supertest.agent(t.urls.a);
    const first = await submit(browser, '/account/sign-in', { email: 'totp@example.com', password: PASSWORD });
    expect(first.headers.location).toBe('/account/sign-in');
    expect((await browser.get('/account/security')).status).toBe(303); // not signed in yet
    const codePage = await browser.get('/account/sign-in');
    expect(codePage.text).toContain('Authentication code');
    const wrong = await browser
      .post('/account/sign-in')
      .type('form')
      .send({ csrf: csrfOf(codePage.text), code: '000000' });
    expect(wrong.status).toBe(400);
    const right = await browser
      .post('/account/sign-in')
      .type('form')
      .send({ csrf: csrfOf(codePage.text), code: await generate({ secret }) });
    expect(right.headers.location).toBe('/account/keys');
    expect(sessionValue(right)).not.toBe(sessionValue(first)); // a new id once fully signed in
    expect((await browser.get('/account/security')).status).toBe(200);

    const recovery = supertest.agent(t.urls.a);
    const signIn = async () => {
      await submit(recovery, '/account/sign-in', { email: 'totp@example.com', password: PASSWORD });
      const page = await recovery.get('/account/sign-in');
      return recovery
        .post('/account/sign-in')
        .type('form')
        .send({ csrf: csrfOf(page.text), code: codes[0]!.toUpperCase() });
    };
    expect((await signIn()).headers.location).toBe('/account/keys');
    const page = await recovery.get('/account/security');
    await recovery
      .post('/account/sign-out')
      .type('form')
      .send({ csrf: csrfOf(page.text) });
    expect((await signIn()).status).toBe(400); // used already
  });
});

describe('sign-up modes and the operator links', () => {
  it('open: the same answer whether the address was free or taken; nothing made for a taken one', async () => {
    await signedUpAgent(t.urls.a, 'taken@example.com');
    const accountsBefore = (await t.service.store.accounts.listAccounts(clock.now())).length;
    const again = await submit(supertest.agent(t.urls.a), '/account/sign-up', { email: 'TAKEN@example.com', password: 'some other password' });
    const fresh = await submit(supertest.agent(t.urls.a), '/account/sign-up', { email: 'free@example.com', password: 'some other password' });
    expect([again.status, again.headers.location]).toEqual([fresh.status, fresh.headers.location]);
    expect((await t.service.store.accounts.listAccounts(clock.now())).length).toBe(accountsBefore + 1);
    const short = await submit(supertest.agent(t.urls.a), '/account/sign-up', { email: 'short@example.com', password: 'too short' });
    expect(short.status).toBe(400);
    expect(short.text).toContain('at least 12 characters');
  });

  it('invite: sign-up needs a link from accounts invite, which can give an account made by keys create its sign-in; closed: none', async () => {
    const invited = await startTestService({ env: { PORTAL_SIGNUP: 'invite' } });
    const closed = await startTestService({ env: { PORTAL_SIGNUP: 'closed' } });
    try {
      const env = { DATA_DIR: invited.dataDir, PORTAL_PUBLIC_URL: invited.urls.a };
      expect((await supertest(invited.urls.a).get('/account/sign-up')).text).toContain('needs an invitation link');
      const refused = await submit(
        supertest.agent(invited.urls.a),
        '/account/sign-in',
        { email: 'walkin@example.com', password: PASSWORD },
        '/account/sign-up',
      );
      expect(refused.status).toBe(403);
      const { accountId } = await invited.createKey('pro');
      const link = JSON.parse((await runCliInProcess(['accounts', 'invite', 'ops@example.com', '--account', accountId, '--json'], env)).stdout).link as string;
      expect(link.startsWith(`${invited.urls.a}/account/sign-up?invite=`)).toBe(true);
      const agent = supertest.agent(invited.urls.a);
      const path = link.slice(invited.urls.a.length);
      const page = await agent.get(path);
      expect(page.text).toContain('value="ops@example.com"');
      const invite = new URL(link).searchParams.get('invite')!;
      expect(
        (
          await agent
            .post('/account/sign-up')
            .type('form')
            .send({ csrf: csrfOf(page.text), invite, email: 'other@example.com', password: PASSWORD })
        ).status,
      ).toBe(303);
      expect((await invited.service.store.users.findByEmail('ops@example.com'))?.accountId).toBe(accountId);
      expect(await invited.service.store.users.findByEmail('other@example.com')).toBeUndefined();
      // Used once.
      expect((await supertest(invited.urls.a).get(path)).text).toContain('missing, used or expired');

      const reset = JSON.parse((await runCliInProcess(['accounts', 'reset-link', 'ops@example.com', '--json'], env)).stdout).link as string;
      const signedIn = supertest.agent(invited.urls.a);
      await submit(signedIn, '/account/sign-in', { email: 'ops@example.com', password: PASSWORD });
      const resetPage = await supertest.agent(invited.urls.a).get(reset.slice(invited.urls.a.length));
      const done = await supertest(invited.urls.a)
        .post('/account/reset')
        .set('Cookie', String(resetPage.headers['set-cookie']?.[0]?.split(';')[0] ?? ''))
        .type('form')
        .send({ csrf: csrfOf(resetPage.text), token: new URL(reset).searchParams.get('token')!, password: 'the password after reset' });
      expect(done.headers.location).toBe('/account/sign-in?done=reset');
      expect((await signedIn.get('/account/security')).status).toBe(303); // every session ended
      expect(
        (await submit(supertest.agent(invited.urls.a), '/account/sign-in', { email: 'ops@example.com', password: 'the password after reset' })).headers
          .location,
      ).toBe('/account/keys');
      expect((await runCliInProcess(['accounts', 'reset-link', 'nobody@example.com'], env)).stderr).toContain(
        'no dashboard sign-in with email nobody@example.com',
      );

      const none = await supertest(closed.urls.a).get('/account/sign-up');
      expect(none.text).toContain('Sign-up is closed');
      // A forged post (the sign-in form's token) is refused as well.
      expect(
        (await submit(supertest.agent(closed.urls.a), '/account/sign-in', { email: 'x@example.com', password: PASSWORD }, '/account/sign-up')).status,
      ).toBe(403);
      expect(await closed.service.store.users.findByEmail('x@example.com')).toBeUndefined();
    } finally {
      await closeAll(invited, closed);
    }
  });

  it('with PORTAL_PUBLIC_URL on https, the cookies are Secure', async () => {
    const secure = await startTestService({ env: { PORTAL_PUBLIC_URL: 'https://dashboard.example.com' } });
    try {
      const res = await supertest(secure.urls.a).get('/account/sign-in');
      expect(cookieOf(res, 'mgw_form')).toMatch(/Secure/);
    } finally {
      await secure.close();
    }
  });
});
