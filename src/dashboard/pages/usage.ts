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
import { PRODUCT } from '../layout.js';
import type { DashboardPage, DashboardRequest } from '../page.js';
import { signedInAccount } from './signed-in-account.js';

/** How many days the page shows, today included. */
const DAYS_SHOWN = 30;

const PRODUCTS: { product: Product; title: string; planOf: (a: Account) => string }[] = [
  { product: 'marketData', title: 'Market data', planOf: (a) => a.marketDataPlan },
  { product: 'prediction', title: 'Prediction markets', planOf: (a) => a.predictionPlan },
];

const planName = (plan: string) => `${plan[0]!.toUpperCase()}${plan.slice(1)}`;
const clock = (ms: number) => `${new Date(ms).toISOString().slice(11, 16)} UTC`;

/** One window's cell: the count against the limit and when it starts again, or "Unlimited" (peek leaves out a window the plan does not limit). */
function windowCell(count: WindowCount | undefined) {
  if (!count) return html`Unlimited`;
  return html`${count.used} of ${count.limit} <span class="hint">(${count.limit - count.used} left, resets ${resetText(count)})</span>`;
}

const resetText = (count: WindowCount) => (count.window === 'minute' ? `at ${clock(count.endsAt)}` : `${utcDate(count.endsAt)} 00:00 UTC`);

/** One window as a meter: how much of it is spent, and what resets when, in words beside it. */
function meter(title: string, window: string, count: WindowCount | undefined) {
  if (!count) return html`<div class="meter"><div class="meter-label"><span>${window}</span><span>Unlimited</span></div></div>`;
  return html`<div class="meter">
<div class="meter-label"><span>${window}</span><span>${count.used} of ${count.limit}</span></div>
<meter min="0" max="${count.limit}" value="${count.used}" aria-label="${title}: ${window}, ${count.used} of ${count.limit} used"></meter>
<p class="hint">${count.limit - count.used} left; the count resets ${resetText(count)}.</p>
</div>`;
}

async function quotaTable(r: DashboardRequest, account: Account) {
  const now = r.services.now();
  const products = await Promise.all(
    PRODUCTS.map(async ({ product, title, planOf }) => {
      const plan = planOf(account);
      if (plan === 'none') {
        return {
          row: html`<tr><th scope="row">${title}</th><td>None: prediction markets need the Pro plan</td><td>—</td><td>—</td></tr>`,
          card: html`<div><h3>${title} <span>no plan</span></h3><p class="hint">Prediction markets need the Pro plan; the keys page says how to get it.</p></div>`,
        };
      }
      const counts = await r.services.quota.peek(account, product, now).catch(() => undefined);
      // The shared counters can be down (Redis) while the history below still reads: say so in this row only.
      if (!counts) {
        const unavailable = 'Counts unavailable right now; try again in a moment';
        return {
          row: html`<tr><th scope="row">${title}</th><td>${planName(plan)}</td><td colspan="2">${unavailable}</td></tr>`,
          card: html`<div><h3>${title} <span>${planName(plan)} plan</span></h3><p class="hint">${unavailable}</p></div>`,
        };
      }
      const of = (window: WindowCount['window']) => counts.find((c) => c.window === window);
      return {
        row: html`<tr><th scope="row">${title}</th><td>${planName(plan)}</td><td>${windowCell(of('minute'))}</td><td>${windowCell(of('day'))}</td></tr>`,
        card: html`<div><h3>${title} <span>${planName(plan)} plan</span></h3>${meter(title, 'This minute', of('minute'))}${meter(title, 'Today (UTC)', of('day'))}</div>`,
      };
    }),
  );
  return html`
<section aria-labelledby="quota-heading">
<h2 id="quota-heading">Plans and quotas</h2>
<div class="quota-grid">${products.map((p) => p.card)}</div>
<p class="hint">The same counters as the <code>X-RateLimit-*</code> headers of your API answers: the minute's count starts again at each UTC minute, the day's at 00:00 UTC.</p>
<div class="visually-hidden">
<table>
<caption>Plans and quotas</caption>
<thead><tr><th scope="col">Product</th><th scope="col">Plan</th><th scope="col">This minute</th><th scope="col">Today (UTC)</th></tr></thead>
<tbody>${products.map((p) => p.row)}</tbody>
</table>
</div>
</section>`;
}

interface UsageRows {
  days: { date: string; requests: number }[];
  routes: { route: string; requests: number }[];
  byDayAndRoute: { day: string; route: string; requests: number }[];
}

/** The last DAYS_SHOWN days of the account's usage records: every day (zero where nothing was counted) and every route. */
async function usageOf(r: DashboardRequest, account: Account): Promise<UsageRows> {
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

/** A round number at or above `n` for the chart's axis: 1, 2 or 5 times a power of ten. */
function niceCeiling(n: number): number {
  const power = 10 ** Math.floor(Math.log10(Math.max(1, n)));
  return [1, 2, 5, 10].map((f) => f * power).find((v) => v >= n)!;
}

/** `2026-11-29` -> `Nov 29` (UTC), for an axis label. */
const shortDate = (date: string) => new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/**
 * Bars of requests per day, on axes: requests on the left (0, half, a round top), days along the
 * bottom (every seventh, and today); an image for sight, the table below it for everyone else.
 */
function chart(days: UsageRows['days']): Html {
  // A small drawing scaled to the page: its labels stay readable from a phone (about 10 px) to a laptop (about 17 px).
  const width = 480;
  const height = 220;
  const left = 44;
  const right = 8;
  const top = 12;
  const bottom = 28;
  const most = Math.max(...days.map((d) => d.requests));
  const ceiling = niceCeiling(most);
  const plotHeight = height - top - bottom;
  const slot = (width - left - right) / days.length;
  const y = (value: number) => top + plotHeight - Math.round((plotHeight * value) / ceiling);
  const ticks = [0, ceiling / 2, ceiling];
  const bars = days.map((d, i) => {
    const barTop = y(d.requests);
    return html`<rect class="bar-day" x="${(left + i * slot + 2).toFixed(1)}" y="${barTop}" width="${(slot - 4).toFixed(1)}" height="${top + plotHeight - barTop}"><title>${d.date}: ${d.requests} requests</title></rect>`;
  });
  const labels = days.flatMap((d, i) =>
    (days.length - 1 - i) % 7 === 0
      ? [
          html`<text x="${(left + (i + 0.5) * slot).toFixed(1)}" y="${height - 8}" text-anchor="middle">${i === days.length - 1 ? 'Today' : shortDate(d.date)}</text>`,
        ]
      : [],
  );
  return html`<svg class="chart" role="img" aria-labelledby="chart-title" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">
<title id="chart-title">Requests per day over the last ${days.length} days, at most ${most} a day; the table "Usage by day" has every number</title>
${ticks.map((t) => html`<line class="grid" x1="${left}" x2="${width - right}" y1="${y(t)}" y2="${y(t)}"></line><text x="${left - 6}" y="${y(t) + 4}" text-anchor="end">${t.toLocaleString('en-US')}</text>`)}
<line class="axis" x1="${left}" x2="${left}" y1="${top}" y2="${top + plotHeight}"></line>
<line class="axis" x1="${left}" x2="${width - right}" y1="${top + plotHeight}" y2="${top + plotHeight}"></line>
${bars}
${labels}
</svg>`;
}

/** Newest first; a run of days without requests is one row ("Nov 2 to Nov 20, 19 days": 0). */
function dayTable(days: UsageRows['days']) {
  const rows: Html[] = [];
  const newestFirst = [...days].reverse();
  for (let i = 0; i < newestFirst.length; ) {
    const day = newestFirst[i]!;
    if (day.requests > 0) {
      rows.push(html`<tr><td>${day.date}</td><td class="number">${day.requests}</td></tr>`);
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < newestFirst.length && newestFirst[j + 1]!.requests === 0) j++;
    const run = j - i + 1;
    const span = run === 1 ? day.date : `${newestFirst[j]!.date} to ${day.date} (${run} days)`;
    rows.push(html`<tr><td>${span}</td><td class="number">0</td></tr>`);
    i = j + 1;
  }
  return html`
<table>
<caption>Usage by day</caption>
<thead><tr><th scope="col">Date (UTC)</th><th scope="col" class="number">Requests</th></tr></thead>
<tbody>${rows}</tbody>
</table>`;
}

/** A usage record's route as a customer reads it: the product, not the listener's letter (`A GET /api/v1/markets` -> `Market data: GET /api/v1/markets`); GraphQL operations as named. */
function routeWords(route: string): string {
  const product = route.startsWith('A ') ? PRODUCT.A : route.startsWith('B ') ? PRODUCT.B : undefined;
  return product ? `${product}: ${route.slice(2)}` : `GraphQL: ${route}`;
}

function routeTable(routes: UsageRows['routes']) {
  if (routes.length === 0) return html`<p>No requests in the last ${DAYS_SHOWN} days.</p>`;
  return html`
<table>
<caption>Usage by route</caption>
<thead><tr><th scope="col">Route or operation</th><th scope="col" class="number">Requests</th></tr></thead>
<tbody>${routes.map((x) => html`<tr><td>${routeWords(x.route)}</td><td class="number">${x.requests}</td></tr>`)}</tbody>
</table>`;
}

export const usagePage: DashboardPage = {
  path: 'usage',
  signedIn: true,
  async get(r) {
    const account = await signedInAccount(r);
    const usage = await usageOf(r, account);
    const body = html`
${await quotaTable(r, account)}
<section aria-labelledby="days-heading">
<h2 id="days-heading">The last ${DAYS_SHOWN} days</h2>
<p>Requests your keys made on both APIs, by UTC day and by REST route or GraphQL operation; a request refused (401, 403, 404, 429) is not counted. <a href="/account/usage.csv" download>Download CSV</a> (date, route, requests).</p>
${usage.routes.length > 0 ? chart(usage.days) : ''}
${routeTable(usage.routes)}
${dayTable(usage.days)}
</section>`;
    return { html: r.render('Usage', body, { section: 'usage' }) };
  },
};

/** The same 30 days as CSV, one line per day and route. */
export const usageCsvPage: DashboardPage = {
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
