/** Quotas per product and plan (D4), which operators may override with PLAN_LIMITS. `null` means unlimited. */
import { z } from 'zod';
import { MARKET_DATA_PLANS, PREDICTION_PLANS, type Account, type Product } from '../domain/account.js';

export interface WindowLimits {
  perMinute: number | null;
  perDay: number | null;
  /** Live subscriptions an account may hold at once on one instance. */
  subscriptions: number;
}

export type PlanLimitTable = {
  marketData: Record<Account['marketDataPlan'], WindowLimits>;
  prediction: Record<Account['predictionPlan'], WindowLimits>;
};

export const PLAN_LIMITS: PlanLimitTable = {
  marketData: {
    free: { perMinute: 10, perDay: 1_000, subscriptions: 2 },
    pro: { perMinute: 60, perDay: 50_000, subscriptions: 20 },
    enterprise: { perMinute: null, perDay: null, subscriptions: 200 },
  },
  prediction: {
    none: { perMinute: null, perDay: null, subscriptions: 0 },
    pro: { perMinute: 60, perDay: null, subscriptions: 20 },
  },
};

const limit = z.number().int().min(1).nullable();
const windows = z.object({ perMinute: limit.optional(), perDay: limit.optional(), subscriptions: z.number().int().min(0).max(100_000).optional() }).strict();
const plans = <P extends readonly [string, ...string[]]>(names: P) => z.partialRecord(z.enum(names), windows);

/** PLAN_LIMITS: e.g. `{"prediction": {"pro": {"perMinute": null}}}` (null lifts a window), `{"marketData": {"free": {"subscriptions": 5}}}`. */
export const PlanLimitOverridesSchema = z.object({ marketData: plans(MARKET_DATA_PLANS).optional(), prediction: plans(PREDICTION_PLANS).optional() }).strict();
type PlanLimitOverrides = z.infer<typeof PlanLimitOverridesSchema>;

/** The defaults with the operator's overrides laid over them, window by window. */
export function resolvePlanLimits(overrides: PlanLimitOverrides = {}): PlanLimitTable {
  const merge = <P extends string>(base: Record<P, WindowLimits>, over: Partial<Record<P, Partial<WindowLimits>>> | undefined) =>
    Object.fromEntries(Object.entries<WindowLimits>(base).map(([plan, w]) => [plan, { ...w, ...over?.[plan as P] }])) as Record<P, WindowLimits>;
  return { marketData: merge(PLAN_LIMITS.marketData, overrides.marketData), prediction: merge(PLAN_LIMITS.prediction, overrides.prediction) };
}

export function limitsFor(account: Account, product: Product, table: PlanLimitTable = PLAN_LIMITS): WindowLimits {
  return product === 'marketData' ? table.marketData[account.marketDataPlan] : table.prediction[account.predictionPlan];
}

/** Subscriptions an account may hold at once: the larger of its two plans' allowances. */
export function subscriptionCap(account: Account, table: PlanLimitTable = PLAN_LIMITS): number {
  return Math.max(table.marketData[account.marketDataPlan].subscriptions, table.prediction[account.predictionPlan].subscriptions);
}

/** The account's field that names its plan in each product: the plan selects the limits, and names the counters. */
export const PLAN_FIELD = { marketData: 'marketDataPlan', prediction: 'predictionPlan' } as const satisfies Record<Product, keyof Account>;
