/**
 * Screenshots of every dashboard page at 390 px (a phone) and 1280 px (a laptop) wide, for
 * docs/dashboard.md: an account on Pro and Enterprise with a key just made, a few calls on both
 * APIs, a signal alert and a webhook endpoint, in the real service with Debian's chromium.
 *
 *   npx tsx scripts/dashboard-screenshots.ts        # writes docs/dashboard/*.png
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { bearer, realSecond, startTestService, TestClock } from '../test/support/service.js';

const OUT = path.resolve('docs/dashboard');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PASSWORD = 'correct horse battery staple';
const WIDTHS = [390, 1280] as const;

const t = await startTestService({ clock: new TestClock(realSecond()), env: { WEBHOOK_ALLOW_HTTP: '1', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' } });
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
fs.mkdirSync(OUT, { recursive: true });
try {
  for (const width of WIDTHS) {
    const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 800 } });
    const page = await context.newPage();
    const shot = async (name: string, p: Page = page) => {
      await p.screenshot({ path: path.join(OUT, `${name}-${width}.png`), fullPage: true });
    };
    const email = `ana-${width}@example.com`;
    await page.goto(`${t.urls.a}/account/sign-up`);
    await shot('sign-up');
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('status').waitFor();
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await shot('sign-in');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('table', { name: 'API keys' }).waitFor();
    const accountId = (await t.service.store.users.findByEmail(email))!.accountId;
    await t.service.store.accounts.setPlans(accountId, { marketDataPlan: 'enterprise', predictionPlan: 'pro' }, t.clock.now());
    await page.getByRole('textbox', { name: 'Key name' }).fill('production server');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByRole('textbox', { name: 'New API key' }).inputValue();
    await shot('keys-new-key');
    for (let i = 0; i < 7; i++) await t.a.get('/api/v1/markets?limit=5').set(bearer(key));
    for (let i = 0; i < 3; i++) await t.b.get('/api/v1/markets').set(bearer(key));
    await t.a.post('/graphql').set(bearer(key)).send({ query: '{ assetMarkets(limit: 3) { total } }' });
    await t.service.usage!.flush();
    await page.getByRole('link', { name: 'API keys' }).click();
    await shot('keys');
    await page.getByRole('link', { name: 'Usage' }).click();
    await shot('usage');
    await page.getByRole('link', { name: 'Alerts' }).click();
    await page.getByLabel('Symbol').fill('BTC/USD');
    await page.getByLabel('Condition').selectOption('signal');
    await page.getByLabel('Signal').selectOption('rsi_overbought');
    await page.getByRole('button', { name: 'Create alert' }).click();
    await page.getByRole('table', { name: 'Price alerts' }).waitFor();
    await shot('alerts');
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('textbox', { name: 'Endpoint URL' }).fill('http://127.0.0.1:8080/hooks/market-gateway');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByRole('status').or(page.getByRole('alert')).first().waitFor();
    await shot('webhooks');
    await page.getByRole('link', { name: 'Security' }).click();
    await shot('security');
    await context.close();
  }
} finally {
  await browser.close();
  await t.close();
}
