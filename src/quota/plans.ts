/** Quotas per product and plan (D4). `null` means unlimited. */
import type { Account, Product } from '../domain/account.js';

export interface WindowLimits {
  perMinute: number | null;
  perDay: number | null;
}

export const PLAN_LIMITS = {
  marketData: {
    free: { perMinute: 10, perDay: 1_000 },
    pro: { perMinute: 60, perDay: 50_000 },
    enterprise: { perMinute: null, perDay: null },
  },
  prediction: {
    none: { perMinute: null, perDay: null },
    pro: { perMinute: 60, perDay: null },
  },
} as const satisfies Record<Product, Record<string, WindowLimits>>;

export function limitsFor(account: Account, product: Product): WindowLimits {
  return product === 'marketData'
    ? PLAN_LIMITS.marketData[account.marketDataPlan]
    : PLAN_LIMITS.prediction[account.predictionPlan];
}

/** The plan name that selects the limits, used in limiter keys. */
export function planOf(account: Account, product: Product): string {
  return product === 'marketData' ? account.marketDataPlan : account.predictionPlan;
}
