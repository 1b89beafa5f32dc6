/**
 * What a plan allows: each product (market data, prediction) has tiers, and a request needs a
 * least tier per product it reads. The schema declares the needs per field; this is the check.
 */
import type { Account, Product } from './account.js';
import { forbidden } from './errors.js';

export type PlanTier = 'FREE' | 'PRO' | 'ENTERPRISE';
export const TIER_RANK: Record<PlanTier, number> = { FREE: 0, PRO: 1, ENTERPRISE: 2 };

/** The least plan per product that a request needs; empty for one that reads no data (introspection). */
export type PlanRequirements = Partial<Record<Product, PlanTier>>;

const PLAN_NAMES: Record<Product, string> = { marketData: 'market-data', prediction: 'prediction' };

/** The account's tier in a product; `none` (prediction) is below every tier. */
function accountRank(account: Account, product: Product): number {
  const plan = product === 'marketData' ? account.marketDataPlan : account.predictionPlan;
  return plan === 'none' ? -1 : TIER_RANK[plan.toUpperCase() as PlanTier];
}

/**
 * Throws a `forbidden` domain error naming the plan that is missing (the edge answers it 403), and
 * `howToGetIt` when given (where the plan is bought, or whom to ask).
 */
export function assertPlan(account: Account, requirements: PlanRequirements, what: string, howToGetIt?: string): void {
  for (const [product, tier] of Object.entries(requirements) as [Product, PlanTier][]) {
    if (accountRank(account, product) < TIER_RANK[tier]) {
      const plan = product === 'marketData' ? account.marketDataPlan : account.predictionPlan;
      const needs = `${what} needs the ${tier.toLowerCase()} ${PLAN_NAMES[product]} plan or higher; this key's ${PLAN_NAMES[product]} plan is ${plan}`;
      throw forbidden(howToGetIt ? `${needs}: ${howToGetIt}` : needs);
    }
  }
}
