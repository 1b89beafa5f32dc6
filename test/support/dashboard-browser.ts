/**
 * The account dashboard in a real browser (Debian's chromium, driven by playwright-core), as a
 * customer uses it: the suite of dashboard-browser.test.ts (390 px, a phone, and a double click on
 * every changing form) and dashboard-browser-laptop.test.ts (1280 px), two files so that the two
 * widths run on two workers side by side; both connect to the run's one Chromium (browser.ts).
 * Found by the accessible names the issue fixes: sign up, sign in, create a key,
 * call both REST APIs with it, see the calls in Usage, create and cancel a price alert and see it in
 * GET /api/v1/alerts, revoke the key (401 within 2 s), sign out; an Enterprise account adds a
 * webhook endpoint on a loopback receiver, rotates its secret (a reload of either page that showed
 * a secret changes nothing), sends a test and sees the delivery; under load (slowed CPU, a slow
 * server) a double-clicked form is sent once. axe-core checks every page, signed in and out (the sign-in
 * and sign-up pages once per listener and width): no serious or critical violation, and no page
 * wider than the window.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { utcDate } from '../../src/domain/time.js';
import { openBrowser } from './browser.js';
import { runCliInProcess } from './cli-in-process.js';
import { csrfOf } from './dashboard.js';
import { bearer, realSecond, startTestService, TestClock, type TestService } from './service.js';
import { gated } from './gates.js';
import { within } from './wait.js';
import { startWebhookReceiver } from './webhook-receiver.js';

export const maybe = gated('chromium');
const PASSWORD = 'correct horse battery staple';

let t: TestService;
let browser: Browser | undefined;
/** Every page checked by axe, with what it found of serious or critical impact. */
const violations: { page: string; ids: string[] }[] = [];

/** The file's service (and webhook settings for a loopback receiver), and its connection to the run's Chromium. */
export function setUpDashboardBrowser(): void {
  beforeAll(async () => {
    // This module outlives a file on its worker: the contexts and findings are the file's own.
    contexts.clear();
    violations.length = 0;
    t = await startTestService({
      clock: new TestClock(realSecond()),
      env: { WEBHOOK_ALLOW_HTTP: '1', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', WEBHOOK_POLL_MS: '100' },
    });
    browser = await openBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close(); // its contexts with it
    await t?.close();
  });
}

/** The file's service, once setUpDashboardBrowser's beforeAll ran. */
export const service = (): TestService => t;

/** The widths the suite runs at: a phone (390 px) and a laptop (1280 px). */
export const WIDTHS = [390, 1280] as const;

/**
 * The file's one context per width, each with a blank page kept open. Headless Chromium gives a
 * context a window, and a window WebUI pages of its own (the omnibox's popups) that cost more CPU
 * than a test's pages; a window closes with its last page. The tests' isolation is their cookies
 * and permissions, which newPage clears.
 */
const contexts = new Map<number, Promise<BrowserContext>>();

async function openContext(width: number): Promise<BrowserContext> {
  const context = await browser!.newContext({ viewport: { width, height: 900 } });
  await context.route('**/*', (route) => {
    const { hostname } = new URL(route.request().url());
    return hostname === '127.0.0.1' ? route.continue() : route.abort('internetdisconnected');
  });
  await context.newPage();
  return context;
}

/** A page at `width` for one test, signed in as nobody and granted nothing; the test closes it. */
export async function newPage(width: number): Promise<Page> {
  if (!contexts.has(width)) contexts.set(width, openContext(width));
  const context = await contexts.get(width)!;
  await context.clearCookies();
  await context.clearPermissions();
  return context.newPage();
}

/** axe-core's minified build (the same rules as its full source, less than half the text to compile per page). */
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core run in the page itself, put there once per document. @axe-core/playwright's runner put
 * the unminified source there and again into a blank page of its own for every audit, each then
 * compiled: most of the suite's time. Its runner exists for frames; the dashboard's pages have none.
 */
async function runAxe(page: Page): Promise<AxeResults> {
  expect(page.frames()).toHaveLength(1);
  if (!(await page.evaluate<boolean>('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE);
  // Only the violations are read: the other result types keep their first node, not each one.
  return page.evaluate<AxeResults>(`axe.run(document, { resultTypes: ['violations'] })`);
}

/** axe-core on the page as it is now; serious and critical findings are kept for the last test. */
async function audit(page: Page, name: string): Promise<void> {
  const result = await runAxe(page);
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  // Usable at the window's width: nothing wider than it, so nothing to scroll sideways for.
  const fits = await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth');
  violations.push({
    page: name,
    ids: [...bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), ...(fits ? [] : ['wider than the window'])],
  });
}

/** Signs a new customer up and in through both forms, which axe checks. */
async function signUpAndIn(page: Page, base: string, email: string): Promise<void> {
  const width = page.viewportSize()?.width;
  await page.goto(`${base}/account`);
  await audit(page, `${width} px: sign in`);
  // Both pages have an Email field: each fill waits for the page it means, not the one leaving.
  await page.getByRole('link', { name: 'Create account' }).click();
  await page.waitForURL((url) => url.pathname === '/account/sign-up');
  await audit(page, `${width} px: create account`);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL((url) => url.pathname === '/account/sign-in' && url.searchParams.get('done') === 'signed-up');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('table', { name: 'API keys' }).waitFor();
}

/**
 * A new customer signed up and in by the context's own HTTP client, whose cookies are the page's,
 * then API keys opened: for the tests whose subject is not the sign-up (signUpAndIn's customer goes
 * through both forms at each width), four page loads fewer.
 */
export async function signUpAndInOverHttp(page: Page, base: string, email: string): Promise<void> {
  for (const path of ['/account/sign-up', '/account/sign-in']) {
    const form = await page.request.get(`${base}${path}`);
    const sent = await page.request.post(`${base}${path}`, { form: { csrf: csrfOf(await form.text()), email, password: PASSWORD }, maxRedirects: 0 });
    expect(sent.status()).toBe(303);
  }
  await page.goto(`${base}/account/keys`);
  await page.getByRole('table', { name: 'API keys' }).waitFor();
}

/**
 * Waits for the page a form's POST leads to (its notice), so that the next step does not race that
 * navigation (a reload during it fails with "Not attached to an active page").
 */
const noticeShown = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text }).waitFor();

export const accountOf = async (email: string) => (await t.service.store.users.findByEmail(email))!.accountId;

/**
 * The dashboard under load, as the customer meets it: the page's CPU slowed 4x (CDP) from the first
 * click and each POST to `path` held by a slow server until a second one comes or a second passes.
 * `doubleClick` clicks `button` twice, the second click once the first send is on its way (as a slow
 * page lets a double click do; Chromium then sends the form again, cancelling the first navigation,
 * and the customer saw the refusal of the second send). `posts` counts the POSTs the page sent.
 */
export async function underLoad(page: Page, path: string) {
  const cdp = await page.context().newCDPSession(page);
  let posts = 0;
  let firstSent: () => void = () => undefined;
  const first = new Promise<void>((resolve) => {
    firstSent = resolve;
  });
  const held: (() => void)[] = [];
  const release = () => {
    for (const go of held.splice(0)) go();
  };
  await page.route(`**${path}`, async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    posts++;
    firstSent();
    const go = new Promise<void>((resolve) => held.push(resolve));
    if (held.length > 1) release();
    else setTimeout(release, 1_000);
    await go;
    await route.continue().catch(() => undefined); // a send the browser gave up on
  });
  return {
    posts: () => posts,
    async doubleClick(button: Locator): Promise<void> {
      await button.scrollIntoViewIfNeeded();
      const box = (await button.boundingBox())!;
      const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await page.mouse.click(x, y);
      await first;
      await page.mouse.click(x, y);
    },
    async stop(): Promise<void> {
      await page.unroute(`**${path}`);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    },
  };
}

/** Every test of one width (`at <width> px wide`). */
export function describeAtWidth(width: (typeof WIDTHS)[number]): void {
  describe(`at ${width} px wide`, () => {
    maybe(
      'a customer: key, both APIs, usage, an alert, revocation within 2 s, sign-out',
      async () => {
        const page = await newPage(width);
        await signUpAndIn(page, t.urls.a, `${width}-customer@example.com`);
        // The operator gives the account Pro on both products (as a customer's purchase would).
        const plan = await runCliInProcess(['accounts', 'set-plan', `${width}-customer@example.com`, '--market-data', 'pro', '--prediction', 'pro'], {
          DATA_DIR: t.dataDir,
        });
        expect(plan.code).toBe(0);
        await audit(page, `${width} px: API keys`);

        await page.getByRole('textbox', { name: 'Key name' }).fill('laptop');
        await page.getByRole('button', { name: 'Create key' }).click();
        const key = await page.getByRole('textbox', { name: 'New API key' }).inputValue();
        expect(key).toMatch(/^mgw_/);
        await page.getByRole('table', { name: 'API keys' }).getByRole('cell', { name: 'laptop', exact: true }).waitFor();
        expect(await page.content()).toContain(key); // shown on this answer only
        // Its Copy button puts exactly the key on the clipboard (public/dashboard/dashboard.js). The
        // clipboard is the browser's, shared by the contexts of both widths running at once: what
        // this page wrote is read from its own record of the write, which then went through as usual.
        await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.urls.a });
        await page.evaluate(`{
          const write = navigator.clipboard.writeText.bind(navigator.clipboard);
          navigator.clipboard.writeText = (text) => { window.copied = text; return write(text); };
        }`);
        await page.getByRole('button', { name: 'Copy' }).click();
        await page.getByRole('button', { name: 'Copied' }).waitFor();
        expect(await page.evaluate<string>('window.copied')).toBe(key); // strings: the tests' types have no DOM
        await audit(page, `${width} px: API keys, new key shown`);
        // Usable at this width: nothing wider than the window, so nothing to scroll sideways for.
        expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);

        expect((await t.a.get('/api/v1/markets?limit=2').set(bearer(key))).status).toBe(200);
        expect((await t.b.get(`/api/v1/markets?apikey=${key}`)).status).toBe(200);
        await t.service.usage!.flush();

        await page.getByRole('link', { name: 'Usage' }).click();
        const today = page
          .getByRole('table', { name: 'Usage by day' })
          .getByRole('row')
          .filter({ hasText: utcDate(t.clock.now()) });
        const requests = Number((await today.getByRole('cell').last().textContent())?.trim());
        expect(requests).toBe(2); // the A call and the B call
        await audit(page, `${width} px: Usage`);

        await page.getByRole('link', { name: 'API keys' }).click();
        expect(await page.content()).not.toContain(key); // never again

        await page.getByRole('link', { name: 'Alerts' }).click();
        await page.getByLabel('Symbol').fill('BTC/USD');
        await page.getByLabel('Condition').selectOption({ index: 0 });
        await page.getByLabel('Threshold').fill('1000000');
        await page.getByRole('button', { name: 'Create alert' }).click();
        await page.getByRole('table', { name: 'Price alerts' }).getByRole('cell', { name: 'BTC/USD' }).first().waitFor();
        await audit(page, `${width} px: Alerts`);
        const listed = (await t.a.get('/api/v1/alerts').set(bearer(key))).body as { data: { symbol: string; status: string }[] };
        expect(listed.data.map((a) => [a.symbol, a.status])).toEqual([['BTC/USD', 'active']]);
        await page.getByRole('table', { name: 'Price alerts' }).getByRole('button').first().click();
        await noticeShown(page, 'The alert is cancelled.');
        const afterCancel = (await t.a.get('/api/v1/alerts?status=active').set(bearer(key))).body as { data: unknown[] };
        expect(afterCancel.data).toEqual([]);

        await page.getByRole('link', { name: 'Security' }).click();
        await page.getByRole('table', { name: 'Account activity' }).waitFor();
        await audit(page, `${width} px: Security`);

        await page.getByRole('link', { name: 'API keys' }).click();
        await page.getByRole('button', { name: 'Revoke laptop' }).click();
        await audit(page, `${width} px: API keys, confirm revocation`);
        await page.getByRole('button', { name: 'Revoke key' }).click();
        const refusedWithin = await within(2_000, async () => (await t.a.get('/api/v1/markets').set(bearer(key))).status === 401);
        expect(refusedWithin).toBeLessThan(2_000);
        await noticeShown(page, 'The key is revoked');

        await page.getByRole('button', { name: 'Sign out' }).click();
        await page.getByRole('button', { name: 'Sign in' }).waitFor();
        expect(new URL(page.url()).pathname).toBe('/account/sign-in');
        await page.close();
      },
      90_000,
    );

    maybe(
      'an Enterprise account adds a webhook endpoint on a loopback receiver, sends a test and sees the delivery',
      async () => {
        const receiver = await startWebhookReceiver();
        const page = await newPage(width);
        try {
          await signUpAndInOverHttp(page, t.urls.a, `${width}-enterprise@example.com`);
          await t.service.store.accounts.setPlans(await accountOf(`${width}-enterprise@example.com`), { marketDataPlan: 'enterprise' }, Date.now());
          await page.getByRole('link', { name: 'Webhooks' }).click();
          await audit(page, `${width} px: Webhooks`);
          await page.getByRole('textbox', { name: 'Endpoint URL' }).fill(receiver.url('/hook'));
          await page.getByRole('button', { name: 'Add endpoint' }).click();
          const secret = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
          expect(secret).toMatch(/^whsec_/);
          await audit(page, `${width} px: Webhooks, secret shown`);
          // A reload sends the add form again: refused, and the endpoint stays the only one.
          await page.reload();
          await page.getByRole('alert').filter({ hasText: 'This form already added the endpoint' }).waitFor();
          expect(await page.getByRole('table', { name: 'Webhook endpoints' }).getByRole('row').count()).toBe(2); // its header and the endpoint
          // So does a reload of the page that showed a rotated secret: refused, and the secret shown stays.
          await page.getByRole('button', { name: `Rotate secret of ${receiver.url('/hook')}` }).click();
          const rotated = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
          expect(rotated).toMatch(/^whsec_/);
          expect(rotated).not.toBe(secret);
          await page.reload();
          await page.getByRole('alert').filter({ hasText: 'was rotated after this form was shown' }).waitFor();
          expect(await page.getByRole('textbox', { name: 'Signing secret' }).count()).toBe(0);
          await audit(page, `${width} px: Webhooks, a rotation sent again`);
          await page.getByRole('button', { name: 'Send test webhook' }).first().click();
          await noticeShown(page, 'A webhook.test event is queued');
          await within(5_000, () => receiver.received.length > 0);
          // Signed with the secret the rotation showed: the reload rotated nothing more.
          expect(new Webhook(rotated).verify(receiver.received[0]!.body, receiver.received[0]!.headers)).toMatchObject({ type: 'webhook.test' });
          await within(5_000, async () => {
            await page.reload();
            return (await page.getByRole('table', { name: 'Deliveries' }).getByRole('row').count()) > 1;
          });
          await audit(page, `${width} px: Webhooks, deliveries`);
        } finally {
          await page.close();
          await receiver.close();
        }
      },
      90_000,
    );

    maybe(
      'a double click on "Create key" under load sends the form once and shows the key; a reload of that page makes no second key',
      async () => {
        const page = await newPage(width);
        try {
          await signUpAndInOverHttp(page, t.urls.a, `${width}-reloading@example.com`);
          const load = await underLoad(page, '/account/keys');
          await page.getByRole('textbox', { name: 'Key name' }).fill('desk');
          await load.doubleClick(page.getByRole('button', { name: 'Create key' }));
          await page.getByRole('textbox', { name: 'New API key' }).waitFor();
          expect(load.posts()).toBe(1); // the page's own script (public/dashboard/dashboard.js) sent it once
          const rows = page.getByRole('table', { name: 'API keys' }).getByRole('cell', { name: 'desk', exact: true });
          expect(await rows.count()).toBe(1);
          await load.stop();
          // The page is the answer to the POST: a reload sends the form again.
          await page.reload();
          await page.getByRole('alert').filter({ hasText: 'This form already made the key "desk"' }).waitFor();
          await audit(page, `${width} px: API keys, form sent again`);
          expect(await page.getByRole('textbox', { name: 'New API key' }).count()).toBe(0);
          expect(await rows.count()).toBe(1);
        } finally {
          await page.close();
        }
      },
      60_000,
    );

    maybe('axe-core: no serious or critical violation on any page, signed in or out (and on the B listener)', async () => {
      const before = violations.length; // the pages the tests above audited, when they ran
      const page = await newPage(width);
      for (const path of ['/account/sign-in', '/account/sign-up', '/account/reset']) {
        await page.goto(`${t.urls.b}${path}`);
        await audit(page, `${width} px: ` + `B ${path}`);
      }
      await signUpAndInOverHttp(page, t.urls.b, `${width}-b-customer@example.com`);
      await audit(page, `${width} px: B API keys (no Pro plan)`);
      await page.close();
      // Its own four pages at least, so that it checks something when run alone (`jest -t`); every page audited by any test.
      expect(violations.length - before).toBeGreaterThanOrEqual(4);
      expect(violations.filter((v) => v.ids.length > 0)).toEqual([]);
    });
  });
}
