/**
 * The account dashboard in a real browser at 390 px (a phone), and a double click on every form
 * that changes something; test/support/dashboard-browser.ts has the suite and says what it covers,
 * dashboard-browser-laptop.test.ts runs it at 1280 px beside this file.
 */
import {
  accountOf,
  describeAtWidth,
  maybe,
  newPage,
  service,
  setUpDashboardBrowser,
  signUpAndInOverHttp,
  underLoad,
  WIDTHS,
} from '../support/dashboard-browser.js';

setUpDashboardBrowser();
describeAtWidth(WIDTHS[0]);

maybe(
  'every dashboard form that changes something is sent once under load: a double click on "Create alert" makes one alert',
  async () => {
    const page = await newPage(WIDTHS[0]);
    try {
      await signUpAndInOverHttp(page, service().urls.a, 'double-alert@example.com');
      await service().service.store.accounts.setPlans(await accountOf('double-alert@example.com'), { marketDataPlan: 'pro' }, Date.now());
      await page.getByRole('link', { name: 'Alerts' }).click();
      const load = await underLoad(page, '/account/alerts');
      await page.getByLabel('Symbol').fill('ETH/USD');
      await page.getByLabel('Condition').selectOption({ index: 0 });
      await page.getByLabel('Threshold').fill('1000000');
      await load.doubleClick(page.getByRole('button', { name: 'Create alert' }));
      await page.getByRole('table', { name: 'Price alerts' }).getByRole('cell', { name: 'ETH/USD' }).first().waitFor();
      expect(load.posts()).toBe(1);
      expect(await page.getByRole('table', { name: 'Price alerts' }).getByRole('cell', { name: 'ETH/USD', exact: true }).count()).toBe(1);
      // Every POST form of every page carries the same script (the layout's), which acts on any form sent by POST.
      expect(await page.locator('script[src="/account/assets/dashboard.js"]').count()).toBe(1);
    } finally {
      await page.close();
    }
  },
  60_000,
);
