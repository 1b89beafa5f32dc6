/**
 * The explorers in a real browser (Debian's chromium, driven by playwright-core), with every request
 * that would leave loopback refused and recorded: GET /graphql shows that Apollo Sandbox cannot load
 * and points to /graphiql; /graphiql asks for a key before its first request, keeps it in the tab's
 * session storage only and loads the schema with it; it renders from the gateway alone, runs a query
 * with a key from its header editor, and shows a subscription's event. /docs, the REST reference, opens on its operations.
 */
import type { Browser, Page } from 'playwright-core';
import { openBrowser } from '../support/browser.js';
import { startTestService, type TestService } from '../support/service.js';
import { gated } from '../support/gates.js';
import { within } from '../support/wait.js';

const maybe = gated('chromium');

let t: TestService;
let browser: Browser | undefined;
/** Requests the pages tried to send beyond loopback (refused). */
const outside: string[] = [];

beforeAll(async () => {
  t = await startTestService();
  browser = await openBrowser(); // the run's one Chromium (browser.ts)
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function openPage(url: string): Promise<Page> {
  const context = await browser!.newContext();
  await context.route('**/*', (route) => {
    const { hostname } = new URL(route.request().url());
    if (hostname === '127.0.0.1' || hostname === 'localhost') return route.continue();
    outside.push(route.request().url());
    return route.abort('internetdisconnected');
  });
  const page = await context.newPage();
  await page.goto(url);
  return page;
}

maybe('GET /graphql without internet says Sandbox cannot load and links the built-in GraphiQL', async () => {
  const page = await openPage(`${t.urls.a}/graphql`);
  await page.locator('#offline').waitFor({ state: 'visible', timeout: 15_000 });
  expect(await page.locator('#offline-link').getAttribute('href')).toBe('/graphiql');
  expect(outside.some((u) => u.includes('apollographql.com'))).toBe(true); // it did try Sandbox first
  await page.context().close();
});

maybe(
  '/graphiql renders from the gateway alone, runs a query with the key, and shows a subscription event',
  async () => {
    outside.length = 0;
    const { key, accountId } = await t.createKey('pro');
    const headers = JSON.stringify({ Authorization: `Bearer ${key}` });
    const query = `${t.urls.a}/graphiql?query=${encodeURIComponent('{ viewer { accountId } }')}&headers=${encodeURIComponent(headers)}`;
    const page = await openPage(query);
    await page.locator('.graphiql-execute-button').click({ timeout: 15_000 });
    await within(15_000, async () => {
      const text = (await page.locator('.result-window').textContent()) ?? '';
      return text.includes(accountId);
    });

    const subscription = `${t.urls.a}/graphiql?query=${encodeURIComponent('subscription { quotes(symbols: ["BTC/USD"]) { symbol price } }')}&headers=${encodeURIComponent(headers)}`;
    await page.goto(subscription);
    await page.locator('.graphiql-execute-button').click({ timeout: 15_000 });
    const quote = t.service.markets.quote('BTC/USD')!;
    await within(15_000, async () => {
      t.clock.advance(1_000);
      t.service.markets.applyQuotes([{ ...quote, price: 43_210.5, observedAt: t.clock.now() }]);
      const text = (await page.locator('.result-window').textContent()) ?? '';
      return text.includes('43210.5');
    });
    expect(outside).toEqual([]);
    await page.context().close();
  },
  60_000,
);

maybe(
  '/graphiql asks for the key before any request, refuses a wrong one with the reason, and loads the schema with a right one (session storage only)',
  async () => {
    outside.length = 0;
    const { key } = await t.createKey('pro');
    const page = await openPage(`${t.urls.a}/graphiql`);
    const sent: { body: string; authorization: string | undefined }[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/graphql') sent.push({ body: request.postData() ?? '', authorization: request.headers().authorization });
    });
    const field = page.getByLabel('API key');
    await field.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await page.locator('.graphiql-container').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Change key' }).isVisible()).toBe(false);
    await page.waitForTimeout(300);
    expect(sent).toEqual([]); // nothing before a key

    await field.fill(`mgw_${'x'.repeat(40)}`);
    await page.getByRole('button', { name: 'Use this key' }).click();
    await page.getByRole('alert').filter({ hasText: 'unknown API key' }).waitFor({ timeout: 15_000 });
    expect(await page.locator('.graphiql-container').count()).toBe(0);

    await field.fill(key);
    await page.getByRole('button', { name: 'Use this key' }).click();
    await page.locator('.graphiql-container').waitFor({ timeout: 15_000 });
    // The schema loads with the key: the Docs panel lists the root types without a re-fetch.
    await within(15_000, () => sent.some((r) => r.body.includes('IntrospectionQuery') && r.authorization === `Bearer ${key}`));
    await page.getByRole('button', { name: /Show Documentation Explorer/i }).click();
    await page.locator('.graphiql-doc-explorer').getByText('Query', { exact: true }).first().waitFor({ timeout: 15_000 });
    expect(await page.evaluate(() => sessionStorage.getItem('market-gateway.graphiql.key'))).toBe(key);
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain(key.slice(4));
    expect(page.url()).not.toContain(key);

    // Reloaded in the same tab: the key is remembered; the schema loads at once.
    await page.reload();
    await page.locator('.graphiql-container').waitFor({ timeout: 15_000 });
    expect(await page.getByLabel('API key').isVisible()).toBe(false);
    expect(outside).toEqual([]);
    await page.context().close();
  },
  60_000,
);

maybe('/docs opens on its operations: the first is on the first screen of a 1280 x 800 window, on each variant', async () => {
  outside.length = 0;
  for (const base of [t.urls.a, t.urls.b]) {
    const page = await openPage(`${base}/docs`);
    await page.setViewportSize({ width: 1280, height: 800 });
    const first = page.locator('.opblock').first();
    await first.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await first.textContent()).toMatch(/GET\s*\/api\/v1\/markets/);
    const box = await first.boundingBox();
    expect(box!.y + box!.height).toBeLessThan(800);
    await page.context().close();
  }
  expect(outside).toEqual([]);
});
