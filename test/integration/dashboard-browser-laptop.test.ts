/**
 * The account dashboard in a real browser at 1280 px (a laptop): test/support/dashboard-browser.ts
 * has the suite and says what it covers; dashboard-browser.test.ts runs it at 390 px beside this file.
 */
import { describeAtWidth, setUpDashboardBrowser, WIDTHS } from '../support/dashboard-browser.js';

setUpDashboardBrowser();
describeAtWidth(WIDTHS[1]);
