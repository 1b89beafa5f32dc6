/** PLAN_LIMITS: the operator's overrides over D4's defaults, and clear errors for bad ones. */
import { ConfigError, loadConfig } from '../../../src/config/config.js';
import type { Account } from '../../../src/domain/account.js';
import { limitsFor, PLAN_FIELD, PLAN_LIMITS, resolvePlanLimits, subscriptionCap } from '../../../src/quota/plans.js';

const account = (marketDataPlan: Account['marketDataPlan'], predictionPlan: Account['predictionPlan']): Account => ({
  id: 'acct_1',
  name: 'a',
  marketDataPlan,
  predictionPlan,
});

describe('the defaults (D4; subscriptions in docs/subscriptions.md)', () => {
  it('market data: free 10 a minute and 1 000 a day, pro 60 and 50 000, enterprise unlimited', () => {
    expect(limitsFor(account('free', 'none'), 'marketData')).toMatchObject({ perMinute: 10, perDay: 1_000 });
    expect(limitsFor(account('pro', 'none'), 'marketData')).toMatchObject({ perMinute: 60, perDay: 50_000 });
    expect(limitsFor(account('enterprise', 'none'), 'marketData')).toMatchObject({ perMinute: null, perDay: null });
  });

  it('prediction: pro 60 a minute and no day limit; none, nothing to limit', () => {
    expect(limitsFor(account('free', 'pro'), 'prediction')).toMatchObject({ perMinute: 60, perDay: null });
    expect(limitsFor(account('enterprise', 'none'), 'prediction')).toMatchObject({ perMinute: null, perDay: null });
  });

  it('subscriptions at once: the larger of the two plans, free 2, pro 20, enterprise 200', () => {
    expect(subscriptionCap(account('free', 'none'))).toBe(2);
    expect(subscriptionCap(account('free', 'pro'))).toBe(20);
    expect(subscriptionCap(account('pro', 'none'))).toBe(20);
    expect(subscriptionCap(account('enterprise', 'pro'))).toBe(200);
  });

  it("each product's limits and plan name are its own plan's", () => {
    const table = resolvePlanLimits({ prediction: { pro: { perMinute: 7 } } });
    expect(limitsFor(account('pro', 'pro'), 'prediction', table).perMinute).toBe(7);
    expect(limitsFor(account('pro', 'pro'), 'marketData', table).perMinute).toBe(60);
    expect(account('enterprise', 'none')[PLAN_FIELD.marketData]).toBe('enterprise');
    expect(account('enterprise', 'none')[PLAN_FIELD.prediction]).toBe('none');
  });
});

describe('resolvePlanLimits', () => {
  it('keeps the defaults without overrides', () => {
    expect(resolvePlanLimits()).toEqual(PLAN_LIMITS);
  });

  it('lays each override over its window only; null lifts a window', () => {
    const table = resolvePlanLimits({ marketData: { free: { perMinute: 20 } }, prediction: { pro: { perMinute: null, subscriptions: 5 } } });
    expect(table.marketData.free).toEqual({ perMinute: 20, perDay: 1_000, subscriptions: 2 });
    expect(table.marketData.pro).toEqual(PLAN_LIMITS.marketData.pro);
    expect(table.prediction.pro).toEqual({ perMinute: null, perDay: null, subscriptions: 5 });
  });
});

describe('PLAN_LIMITS in the environment', () => {
  it('is read as JSON', () => {
    expect(loadConfig({ PLAN_LIMITS: '{"marketData": {"pro": {"perDay": 100000}}}' }).planLimits.marketData.pro).toEqual({
      perMinute: 60,
      perDay: 100_000,
      subscriptions: 20,
    });
  });

  it('takes subscriptions from 0 to 100 000', () => {
    expect(loadConfig({ PLAN_LIMITS: '{"marketData": {"free": {"subscriptions": 5}}}' }).planLimits.marketData.free.subscriptions).toBe(5);
    expect(loadConfig({ PLAN_LIMITS: '{"marketData": {"free": {"subscriptions": 0}}}' }).planLimits.marketData.free.subscriptions).toBe(0);
    expect(loadConfig({ PLAN_LIMITS: '{"marketData": {"free": {"subscriptions": 100000}}}' }).planLimits.marketData.free.subscriptions).toBe(100_000);
    expect(() => loadConfig({ PLAN_LIMITS: '{"marketData": {"free": {"subscriptions": 100001}}}' })).toThrow(/PLAN_LIMITS/);
  });

  it.each([
    ['{not json', /PLAN_LIMITS: not valid JSON/],
    ['{"marketData": {"gold": {"perMinute": 5}}}', /PLAN_LIMITS/],
    ['{"prediction": {"pro": {"perMinute": 0}}}', /PLAN_LIMITS/],
    ['{"prediction": {"pro": {"perHour": 5}}}', /PLAN_LIMITS/],
    ['{"marketData": {"free": {"subscriptions": -1}}}', /PLAN_LIMITS/],
  ])('refuses %s with a message naming the variable', (value, message) => {
    expect(() => loadConfig({ PLAN_LIMITS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ PLAN_LIMITS: value })).toThrow(message);
  });
});
