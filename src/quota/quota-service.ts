/**
 * Consumes one unit of an account's quota for a product, in both windows of D4, and says
 * what to answer: allowed or 429, with the rate-limit headers of the binding window.
 */
import type { Account, Product } from '../domain/account.js';
import { type CountKey, type WindowCounter, type WindowName, windowAt } from './counters.js';
import { PLAN_FIELD, PLAN_LIMITS, type PlanLimitTable, type WindowLimits } from './plans.js';

interface QuotaHeaders {
  'X-RateLimit-Limit': string;
  'X-RateLimit-Remaining': string;
  'X-RateLimit-Reset': string;
  'Retry-After'?: string;
}

export interface QuotaDecision {
  allowed: boolean;
  /** Empty for unlimited plans (D4: they carry no rate-limit headers). */
  headers: Partial<QuotaHeaders>;
}

/** Creates the counter of one window for one plan (memory, SQLite, PostgreSQL or Redis). */
export type CounterFactory = (window: WindowName, prefix: string, limit: number) => Promise<WindowCounter>;

export interface WindowState {
  window: WindowName;
  limit: number;
  remaining: number;
  endsAt: number;
}

/** One window's count, as the `X-RateLimit-*` headers count it. */
export interface WindowCount {
  window: WindowName;
  limit: number;
  used: number;
  endsAt: number;
}

export interface QuotaService {
  consume(account: Account, product: Product, now: number): Promise<QuotaDecision>;
  /** This minute's and today's counts of a product's limited windows, spending nothing (the dashboard's Usage page). */
  peek(account: Account, product: Product, now: number): Promise<WindowCount[]>;
}

/** A window a plan limits in one product: its limit, and its counter once made. */
interface PlanWindow {
  window: WindowName;
  limit: number;
  /** Names the counter: one per product, plan, window and limit. */
  prefix: string;
  counter?: WindowCounter;
}

/** Each plan's limited windows in `product`, read from the table once rather than on each request. */
function planWindows<P extends string>(product: Product, plans: Record<P, WindowLimits>): Record<string, PlanWindow[]> {
  return Object.fromEntries(
    Object.entries<WindowLimits>(plans).map(([plan, limits]) => [
      plan,
      limitedWindows(limits).map(([window, limit]) => ({ window, limit, prefix: `q_${product}_${plan}_${window}_${limit}` })),
    ]),
  );
}

export function createQuotaService(counterFor: CounterFactory, table: PlanLimitTable = PLAN_LIMITS): QuotaService {
  const windowsOf: Record<Product, Record<string, PlanWindow[]>> = {
    marketData: planWindows('marketData', table.marketData),
    prediction: planWindows('prediction', table.prediction),
  };
  const windowsFor = (account: Account, product: Product): PlanWindow[] => windowsOf[product][account[PLAN_FIELD[product]]]!;
  const creating = new Map<string, Promise<WindowCounter>>();
  // Counters are created one at a time: concurrent `CREATE TABLE IF NOT EXISTS` races on PostgreSQL.
  let queue: Promise<unknown> = Promise.resolve();

  /** The window's counter, made on its first request and held by the window from then on. */
  async function counterOf(w: PlanWindow): Promise<WindowCounter> {
    let found = creating.get(w.prefix);
    if (!found) {
      found = queue.then(() => counterFor(w.window, w.prefix, w.limit));
      queue = found.catch(() => creating.delete(w.prefix)); // a failed creation is retried next time
      creating.set(w.prefix, found);
    }
    w.counter = await found;
    return w.counter;
  }

  return {
    async consume(account, product, now) {
      const states: WindowState[] = [];
      // Minute first: a request refused by the minute never spends the day. A request refused
      // by the day gives its minute unit back, so neither window is spent by a 429 (D4).
      const spent: { c: WindowCounter; key: CountKey; ttl: number }[] = [];
      for (const w of windowsFor(account, product)) {
        const span = windowAt(w.window, now);
        const key = { owner: account.id, window: span.index };
        const ttl = Math.ceil((span.endsAt - now) / 1000) + 1;
        const c = w.counter ?? (await counterOf(w));
        const result = await c.consume(key, ttl);
        if (!result.allowed) {
          await Promise.all(spent.map((s) => s.c.refund(s.key, s.ttl)));
          return { allowed: false, headers: refusalHeaders(w.limit, span.endsAt, now) };
        }
        spent.push({ c, key, ttl });
        states.push({ window: w.window, limit: w.limit, remaining: Math.max(w.limit - result.consumed, 0), endsAt: span.endsAt });
      }
      return { allowed: true, headers: bindingHeaders(states) };
    },
    async peek(account, product, now) {
      const counts: WindowCount[] = [];
      for (const w of windowsFor(account, product)) {
        const span = windowAt(w.window, now);
        const used = await (w.counter ?? (await counterOf(w))).spent({ owner: account.id, window: span.index });
        counts.push({ window: w.window, limit: w.limit, used: Math.min(used, w.limit), endsAt: span.endsAt });
      }
      return counts;
    },
  };
}

/** The windows a plan limits, minute first (D4). */
export function limitedWindows(limits: WindowLimits): [WindowName, number][] {
  const all: [WindowName, number | null][] = [
    ['minute', limits.perMinute],
    ['day', limits.perDay],
  ];
  return all.filter((w): w is [WindowName, number] => w[1] !== null);
}

export function refusalHeaders(limit: number, endsAt: number, now: number): QuotaHeaders {
  return {
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': '0',
    'X-RateLimit-Reset': String(Math.ceil(endsAt / 1000)),
    'Retry-After': String(Math.max(1, Math.ceil((endsAt - now) / 1000))),
  };
}

/** The binding window has the fewest units left; on a tie, the one that resets first (D4). */
export function bindingHeaders(states: WindowState[]): Partial<QuotaHeaders> {
  const binding = [...states].sort((a, b) => a.remaining - b.remaining || a.endsAt - b.endsAt)[0];
  if (!binding) return {};
  return {
    'X-RateLimit-Limit': String(binding.limit),
    'X-RateLimit-Remaining': String(binding.remaining),
    'X-RateLimit-Reset': String(Math.ceil(binding.endsAt / 1000)),
  };
}
