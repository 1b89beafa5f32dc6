/**
 * Consumes one unit of an account's quota for a product, in both windows of D4, and says
 * what to answer: allowed or 429, with the rate-limit headers of the binding window.
 */
import type { Account, Product } from '../domain/account.js';
import type { CountKey, WindowCounter } from './counters.js';
import { limitsFor, PLAN_LIMITS, planOf, type PlanLimitTable, type WindowLimits } from './plans.js';
import { type WindowName, windowAt } from './windows.js';

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

export function createQuotaService(counterFor: CounterFactory, table: PlanLimitTable = PLAN_LIMITS): QuotaService {
  const counters = new Map<string, Promise<WindowCounter>>();
  // Counters are created one at a time: concurrent `CREATE TABLE IF NOT EXISTS` races on PostgreSQL.
  let creating: Promise<unknown> = Promise.resolve();

  function counter(window: WindowName, product: Product, plan: string, limit: number): Promise<WindowCounter> {
    const prefix = `q_${product}_${plan}_${window}_${limit}`;
    let found = counters.get(prefix);
    if (!found) {
      found = creating.then(() => counterFor(window, prefix, limit));
      creating = found.catch(() => counters.delete(prefix)); // a failed creation is retried next time
      counters.set(prefix, found);
    }
    return found;
  }

  return {
    async consume(account, product, now) {
      const limits = limitsFor(account, product, table);
      const plan = planOf(account, product);
      const states: WindowState[] = [];
      // Minute first: a request refused by the minute never spends the day. A request refused
      // by the day gives its minute unit back, so neither window is spent by a 429 (D4).
      const spent: { c: WindowCounter; key: CountKey; ttl: number }[] = [];
      for (const [window, limit] of limitedWindows(limits)) {
        const span = windowAt(window, now);
        const key = { owner: account.id, window: span.index };
        const ttl = Math.ceil((span.endsAt - now) / 1000) + 1;
        const c = await counter(window, product, plan, limit);
        const result = await c.consume(key, ttl);
        if (!result.allowed) {
          await Promise.all(spent.map((s) => s.c.refund(s.key, s.ttl)));
          return { allowed: false, headers: refusalHeaders(limit, span.endsAt, now) };
        }
        spent.push({ c, key, ttl });
        states.push({ window, limit, remaining: Math.max(limit - result.consumed, 0), endsAt: span.endsAt });
      }
      return { allowed: true, headers: bindingHeaders(states) };
    },
    async peek(account, product, now) {
      const limits = limitsFor(account, product, table);
      const plan = planOf(account, product);
      const counts: WindowCount[] = [];
      for (const [window, limit] of limitedWindows(limits)) {
        const span = windowAt(window, now);
        const used = await (await counter(window, product, plan, limit)).spent({ owner: account.id, window: span.index });
        counts.push({ window, limit, used: Math.min(used, limit), endsAt: span.endsAt });
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
