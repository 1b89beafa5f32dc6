/**
 * The plan check every front applies (src/domain/plans.ts): a request needs, per product it reads,
 * a least tier; the account's tier must be that one or higher. `none` (prediction) is below every tier.
 */
import type { Account } from '../../../src/domain/account.js';
import { DomainError } from '../../../src/domain/errors.js';
import { assertPlan, type PlanRequirements, type PlanTier } from '../../../src/domain/plans.js';

const account = (marketDataPlan: Account['marketDataPlan'], predictionPlan: Account['predictionPlan']): Account => ({
  id: 'acct_1',
  name: 'a',
  marketDataPlan,
  predictionPlan,
});

/** The refusal's message, or undefined when the plan suffices. */
function refusal(who: Account, requirements: PlanRequirements, howToGetIt?: string): string | undefined {
  try {
    assertPlan(who, requirements, 'this operation', howToGetIt);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).kind).toBe('forbidden');
    return (error as DomainError).message;
  }
}

it.each([
  ['free', 'FREE', true],
  ['free', 'PRO', false],
  ['free', 'ENTERPRISE', false],
  ['pro', 'FREE', true],
  ['pro', 'PRO', true],
  ['pro', 'ENTERPRISE', false],
  ['enterprise', 'FREE', true],
  ['enterprise', 'PRO', true],
  ['enterprise', 'ENTERPRISE', true],
] as const)('market data: a %s account against %s: %s', (plan, tier, passes) => {
  expect(refusal(account(plan, 'none'), { marketData: tier as PlanTier }) === undefined).toBe(passes);
});

it('prediction: none is below every tier, pro meets pro', () => {
  expect(refusal(account('enterprise', 'none'), { prediction: 'FREE' })).toBe(
    "this operation needs the free prediction plan or higher; this key's prediction plan is none",
  );
  expect(refusal(account('free', 'pro'), { prediction: 'PRO' })).toBeUndefined();
  expect(refusal(account('free', 'pro'), { prediction: 'ENTERPRISE' })).toMatch(/needs the enterprise prediction plan/);
});

it('every product read is checked, and the refusal names the one that falls short with its plan', () => {
  expect(refusal(account('pro', 'none'), { marketData: 'PRO', prediction: 'PRO' })).toBe(
    "this operation needs the pro prediction plan or higher; this key's prediction plan is none",
  );
  expect(refusal(account('free', 'pro'), { marketData: 'PRO', prediction: 'PRO' })).toBe(
    "this operation needs the pro market-data plan or higher; this key's market-data plan is free",
  );
  expect(refusal(account('free', 'none'), {})).toBeUndefined();
});

it('adds how to get the plan when told', () => {
  expect(refusal(account('free', 'none'), { marketData: 'PRO' }, 'get it at https://example.com/plans')).toBe(
    "this operation needs the pro market-data plan or higher; this key's market-data plan is free: get it at https://example.com/plans",
  );
});
