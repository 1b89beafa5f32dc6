/** An account with one API key, written straight to a store as the CLI would: the plaintext key for the test, only its hash stored. */
import { displayPrefix, generateApiKey, hashApiKey } from '../../src/auth/api-key.js';
import type { MarketDataPlan, PredictionPlan } from '../../src/domain/account.js';
import type { Store } from '../../src/store/index.js';

export async function issueKey(
  store: Store,
  options: { plan?: MarketDataPlan; predictionPlan?: PredictionPlan; anyOperation?: boolean; now: number },
): Promise<{ key: string; keyId: string; accountId: string }> {
  const key = generateApiKey();
  const plan = options.plan ?? 'pro';
  const { account, key: record } = await store.accounts.createAccountWithKey({
    name: `test-${plan}`,
    marketDataPlan: plan,
    predictionPlan: options.predictionPlan ?? 'none',
    keyHash: hashApiKey(key),
    displayPrefix: displayPrefix(key),
    now: options.now,
    ...(options.anyOperation !== undefined ? { anyOperation: options.anyOperation } : {}),
  });
  return { key, keyId: record.id, accountId: account.id };
}
