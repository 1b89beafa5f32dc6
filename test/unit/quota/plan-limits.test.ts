/** PLAN_LIMITS: the operator's overrides over D4's defaults, and clear errors for bad ones. */
import { ConfigError, loadConfig } from '../../../src/config/config.js';
import { PLAN_LIMITS, resolvePlanLimits } from '../../../src/quota/plans.js';

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
