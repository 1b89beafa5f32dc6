/**
 * Plan and usage: each product's plan and quotas with this minute's and today's count, read from
 * the counters that write `X-RateLimit-*` without spending them; and the last 30 days from the usage
 * records (D15), by day (a chart and the table it draws) and by route, with a CSV of day and route.
 * The records are written every USAGE_FLUSH_MS, so the last second may not be in them yet.
 */
import { stringify } from 'csv-stringify/sync';
import type { Account, Product } from '../../domain/account.js';
import { DAY_MS, utcDate } from '../../domain/time.js';
import type { WindowCount } from '../../quota/quota-service.js';
import { type Html, html } from '../html.js';
import type { PortalPage, PortalRequest } from '../portal-handler.js';
import { signedInAccount } from './signed-in-account.js';

/** How many days the page shows, today included. */
const DAYS_SHOWN = 30;

const PRODUCTS: { product: Product; title: string; planOf: (a: Account) => string }[] = [
  { product: 'marketData', title: 'Market data (variant A)', planOf: (a) => a.marketDataPlan },
  { product: 'prediction', title: 'Prediction markets (variant B)', planOf: (a) => a.predictionPlan },
];

const planName = (plan: string) => `${plan[0]!.toUpperCase()}${plan.slice(1)}`;
const clock = (ms: number) => `${new Date(ms).toISOString().slice(11, 16)} UTC`;

/** One window's cell: the count against the limit and when it starts again, or "Unlimited" (peek leaves out a window the plan does not limit). */
function windowCell(count: WindowCount | undefined) {
  if (!count) return html`Unlimited`;
  return html`${count.used} of ${count.limit} <span class="hint">(${count.limit - count.used} left, resets ${count.window === 'minute' ? clock(count.endsAt) : `${utcDate(count.endsAt)} 00:00 UTC`})</span>`;
}

async function quotaTable(r: PortalRequest, account: Account) {
  const now = r.services.now();
  const rows = await Promise.all(
    PRODUCTS.map(async ({ product, title, planOf }) => {
      const plan = planOf(account);
      if (plan === 'none') return html`<tr><th scope="row">${title}</th><td>None: variant B needs the Pro plan</td><td>—</td><td>—</td></tr>`;
      const counts = await r.services.quota.peek(account, product, now).catch(() => undefined);
      // The shared counters can be down (Redis) while the history below still reads: say so in this row only.
      if (!counts)
        return html`<tr><th scope="row">${title}</th><td>${planName(plan)}</td><td colspan="2">Counts unavailable right now; try again in a moment</td></tr>`;
      const of = (window: WindowCount['window']) => counts.find((c) => c.window === window);
      return html`<tr><th scope="row">${title}</th><td>${planName(plan)}</td><td>${windowCell(of('minute'))}</td><td>${windowCell(of('day'))}</td></tr>`;
    }),
  );
  return html`
<table>
<caption>Plans and quotas</caption>
<thead><tr><th scope="col">Product</th><th scope="col">Plan</th><th scope="col">This minute</th><th scope="col">Today (UTC)</th></tr></thead>
<tbody>${rows}</tbody>
</table>
<p class="hint">The same counters as the <code>X-RateLimit-*</code> headers of your API answers; windows start on the UTC minute and at 00:00 UTC.</p>`;
}

interface UsageRows {
  days: { date: string; requests: number }[];
  routes: { route: string; requests: number }[];
  byDayAndRoute: { day: string; route: string; requests: number }[];
}

/** The last DAYS_SHOWN days of the account's usage records: every day (zero where nothing was counted) and every route. */
async function usageOf(r: PortalRequest, account: Account): Promise<UsageRows> {
  const now = r.services.now();
  const dates = Array.from({ length: DAYS_SHOWN }, (_, i) => utcDate(now - (DAYS_SHOWN - 1 - i) * DAY_MS));
  const perDay = new Map(dates.map((d) => [d, 0]));
  // Only the days shown (an instance whose clock runs ahead may have written tomorrow), so every view adds up the same.
  const byDayAndRoute = (await r.services.store.usage.byDayAndRoute(account.id, dates[0]!)).filter((row) => perDay.has(row.day));
  const perRoute = new Map<string, number>();
  for (const row of byDayAndRoute) {
    perDay.set(row.day, perDay.get(row.day)! + row.requests);
    perRoute.set(row.route, (perRoute.get(row.route) ?? 0) + row.requests);
  }
  return {
    days: [...perDay].map(([date, requests]) => ({ date, requests })),
    routes: [...perRoute].map(([route, requests]) => ({ route, requests })).sort((a, b) => b.requests - a.requests || a.route.localeCompare(b.route)),
    byDayAndRoute,
  };
}

/** Bars of requests per day; an image for sight, the table below it for everyone else. */
function chart(days: UsageRows['days']): Html {
  const width = 600;
  const height = 140;
  const top = 16;
  const bottom = 20;
  const most = Math.max(1, ...days.map((d) => d.requests));
  const slot = width / days.length;
  const bars = days.map((d, i) => {
    const h = Math.round(((height - top - bottom) * d.requests) / most);
    return html`<rect x="${(i * slot + 1).toFixed(1)}" y="${height - bottom - h}" width="${(slot - 2).toFixed(1)}" height="${h}"><title>${d.date}: ${d.requests} requests</title></rect>`;
  });
  return html`<svg class="chart" role="img" aria-labelledby="chart-title" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">
<title id="chart-title">Requests per day over the last ${days.length} days, at most ${most} a day; the table "Usage by day" has every number</title>
${bars}
<text x="0" y="12">${most} requests</text>
<text x="0" y="${height - 4}">${days[0]!.date}</text>
<text x="${width}" y="${height - 4}" text-anchor="end">${days.at(-1)!.date}</text>
</svg>`;
}

function dayTable(days: UsageRows['days']) {
  return html`
<table>
<caption>Usage by day</caption>
<thead><tr><th scope="col">Date</th><th scope="col">Requests</th></tr></thead>
<tbody>${[...days].reverse().map((d) => html`<tr><td>${d.date}</td><td>${d.requests}</td></tr>`)}</tbody>
</table>`;
}

function routeTable(routes: UsageRows['routes']) {
  if (routes.length === 0) return html`<p>No requests in the last ${DAYS_SHOWN} days.</p>`;
  return html`
<table>
<caption>Usage by route</caption>
<thead><tr><th scope="col">Route or operation</th><th scope="col">Requests</th></tr></thead>
<tbody>${routes.map((x) => html`<tr><td>${x.route}</td><td>${x.requests}</td></tr>`)}</tbody>
</table>`;
}

export const usagePage: PortalPage = {
  path: 'usage',
  signedIn: true,
  async get(r) {
    const account = await signedInAccount(r);
    const usage = await usageOf(r, account);
    const body = html`
${await quotaTable(r, account)}
<h2>The last ${DAYS_SHOWN} days</h2>
<p>Requests your keys made on both APIs, by UTC day and by REST route or GraphQL operation; a request refused (401, 403, 404, 429) is not counted. <a href="/account/usage.csv" download>Download CSV</a> (date, route, requests).</p>
${chart(usage.days)}
${dayTable(usage.days)}
${routeTable(usage.routes)}`;
    return { html: r.render('Usage', body, { section: 'usage' }) };
  },
};

/** The same 30 days as CSV, one line per day and route. */
export const usageCsvPage: PortalPage = {
  path: 'usage.csv',
  signedIn: true,
  async get(r) {
    const account = await signedInAccount(r);
    const { byDayAndRoute } = await usageOf(r, account);
    const body = stringify(
      byDayAndRoute.map((row) => [row.day, row.route, row.requests]),
      { header: true, columns: ['date', 'route', 'requests'] },
    );
    return { body, type: 'text/csv; charset=utf-8', filename: `usage-${utcDate(r.services.now())}.csv` };
  },
};
