/**
 * What the admission span says (a traced request's `admission`): the key's id, the account and its
 * plan for the listener's product, the quota's outcome; for a refusal its status, and `exceeded`
 * only for a spent quota. Never the key itself.
 */
import type { Principal } from '../../../src/auth/authenticator.js';
import { ApiError } from '../../../src/domain/refusal.js';
import { admissionAttributes, type Outcome } from '../../../src/edge/edge.js';

const KEY = `mgw_${'s'.repeat(40)}`;
const principal: Principal = {
  keyId: 'key_9',
  account: { id: 'acct_9', name: 'nine', marketDataPlan: 'enterprise', predictionPlan: 'pro' },
  anyOperation: false,
};

const admitted = (who: Principal | null, headers: Record<string, string> = {}): Outcome<unknown, unknown> => ({
  admitted: true,
  principal: who,
  target: 'markets',
  params: {},
  headers,
  storeDeadline: undefined,
});
const refused = (status: 401 | 403 | 429 | 503): Outcome<unknown, unknown> => ({
  admitted: false,
  error: new ApiError(status, `refused with ${status}: ${KEY}`),
  headers: {},
  target: undefined,
});

it("an admitted key: its id, its account, the plan of the listener's product, the quota's outcome and what is left", () => {
  expect(admissionAttributes(admitted(principal, { 'X-RateLimit-Remaining': '7' }), 'A')).toEqual({
    'mgw.admission': 'admitted',
    'mgw.key.id': 'key_9',
    'mgw.account.id': 'acct_9',
    'mgw.plan': 'enterprise',
    'mgw.quota': 'allowed',
    'mgw.quota.remaining': 7,
  });
  expect(admissionAttributes(admitted(principal), 'B')).toMatchObject({ 'mgw.plan': 'pro', 'mgw.quota.remaining': undefined });
});

it('an open target without a key: not metered, no key or account', () => {
  expect(admissionAttributes(admitted(null), 'B')).toEqual({
    'mgw.admission': 'admitted',
    'mgw.key.id': undefined,
    'mgw.account.id': undefined,
    'mgw.plan': undefined,
    'mgw.quota': 'not metered',
    'mgw.quota.remaining': undefined,
  });
});

it('a refusal: its status, and the quota exceeded only for a 429; never its message (which may quote what was sent)', () => {
  expect(admissionAttributes(refused(429), 'A')).toEqual({ 'mgw.admission': 'refused', 'http.response.status_code': 429, 'mgw.quota': 'exceeded' });
  for (const status of [401, 403, 503] as const) {
    const attributes = admissionAttributes(refused(status), 'A');
    expect(attributes).toEqual({ 'mgw.admission': 'refused', 'http.response.status_code': status, 'mgw.quota': undefined });
    expect(JSON.stringify(attributes)).not.toContain(KEY);
  }
});
