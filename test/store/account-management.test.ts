/**
 * What the account dashboard and the `accounts` commands need of the store, on SQLite and
 * PostgreSQL: key expiry and disabled accounts in the key lookup, plan and status changes seen by the
 * poll of running servers, the live-key limit held under concurrent additions, listings.
 */
import { hashApiKey } from '../../src/auth/api-key.js';
import { issueKey } from '../support/keys.js';
import { describeOnEachEngine } from '../support/store-suite.js';

const T0 = Date.UTC(2026, 10, 25, 12);

describeOnEachEngine('accounts for the dashboard', (suite) => {
  const { maybe } = suite;
  let n = 0;
  /** A fresh plaintext key (only its hash reaches the store). */
  const fresh = () => `mgw_${'k'.repeat(36)}${suite.engine.name}${++n}`;
  const newKey = (accountId: string, input: { now?: number; expiresAt?: number | null; name?: string } = {}) => {
    const key = fresh();
    return suite.store.accounts.addKeyWithin({
      accountId,
      name: input.name ?? 'k',
      keyHash: hashApiKey(key),
      displayPrefix: key.slice(0, 10),
      now: input.now ?? T0,
      expiresAt: input.expiresAt ?? null,
      maxLive: 100,
    });
  };

  maybe('a key carries its expiry, in its record and its lookup; the lookup says whether the account is disabled', async () => {
    const { accountId } = await issueKey(suite.store, { plan: 'free', now: T0 });
    const key = fresh();
    const added = await suite.store.accounts.addKeyWithin({
      accountId,
      name: 'temp',
      keyHash: hashApiKey(key),
      displayPrefix: key.slice(0, 10),
      now: T0,
      expiresAt: T0 + 60_000,
      maxLive: 20,
    });
    if (!added || added === 'full') throw new Error('not added');
    expect(added.key).toMatchObject({ name: 'temp', expiresAt: T0 + 60_000, revokedAt: null });
    expect((await suite.store.accounts.findKeyById(added.key.id))?.expiresAt).toBe(T0 + 60_000);
    expect(await suite.store.accounts.findKeyByHash(hashApiKey(key))).toMatchObject({ expiresAt: T0 + 60_000, accountDisabled: false });

    expect(await suite.store.accounts.setDisabled(accountId, true, T0 + 1_000)).toBe(true);
    expect(await suite.store.accounts.setDisabled(accountId, true, T0 + 2_000)).toBe(true);
    expect(await suite.store.accounts.findKeyByHash(hashApiKey(key))).toMatchObject({ accountDisabled: true });
    expect((await suite.store.accounts.findAccountSummary(accountId, T0))?.disabledAt).toBe(T0 + 1_000);
    expect(await suite.store.accounts.setDisabled(accountId, false, T0 + 3_000)).toBe(true);
    expect(await suite.store.accounts.findKeyByHash(hashApiKey(key))).toMatchObject({ accountDisabled: false });
    expect(await suite.store.accounts.setDisabled('acct_missing', true, T0)).toBe(false);
  });

  maybe('changing plans or status bumps changed_at, and the poll returns the unrevoked keys of changed accounts', async () => {
    const changedAt = T0 + 10_000_000;
    const one = await issueKey(suite.store, { plan: 'free', now: T0 });
    const revoked = await newKey(one.accountId);
    if (!revoked || revoked === 'full') throw new Error('not added');
    await suite.store.accounts.revokeKey(revoked.key.id, T0);
    const other = await issueKey(suite.store, { plan: 'free', now: T0 });

    const updated = await suite.store.accounts.setPlans(one.accountId, { marketDataPlan: 'pro' }, changedAt);
    expect(updated).toMatchObject({ id: one.accountId, marketDataPlan: 'pro', predictionPlan: 'none' });
    expect(await suite.store.accounts.findAccount(one.accountId)).toEqual(updated);
    expect((await suite.store.accounts.findKeyByHash(hashApiKey(one.key)))?.account.marketDataPlan).toBe('pro');
    // The revoked key was reported when it was revoked; only the account's working key is new here.
    expect(await suite.store.accounts.keyChangesSince(changedAt - 1)).toEqual([{ keyHash: hashApiKey(one.key), at: changedAt }]);
    expect(await suite.store.accounts.keyChangesSince(changedAt)).toEqual([]);

    await suite.store.accounts.setPlans(other.accountId, { predictionPlan: 'pro' }, changedAt + 1);
    expect(await suite.store.accounts.findAccount(other.accountId)).toMatchObject({ marketDataPlan: 'free', predictionPlan: 'pro' });
    await suite.store.accounts.setDisabled(one.accountId, true, changedAt + 2);
    expect((await suite.store.accounts.keyChangesSince(changedAt)).sort((a, b) => a.at - b.at)).toEqual([
      { keyHash: hashApiKey(other.key), at: changedAt + 1 },
      { keyHash: hashApiKey(one.key), at: changedAt + 2 },
    ]);
    expect(await suite.store.accounts.setPlans('acct_missing', { marketDataPlan: 'pro' }, changedAt)).toBeUndefined();
  });

  maybe('counts live keys (neither revoked nor expired) and never adds one past the limit, even concurrently', async () => {
    const { accountId } = await issueKey(suite.store, { plan: 'free', now: T0 });
    const expiring = await newKey(accountId, { expiresAt: T0 + 1_000 });
    const revoked = await newKey(accountId);
    if (!expiring || expiring === 'full' || !revoked || revoked === 'full') throw new Error('not added');
    await suite.store.accounts.revokeKey(revoked.key.id, T0);
    expect(await suite.store.accounts.countLiveKeys(accountId, T0)).toBe(2);
    expect(await suite.store.accounts.countLiveKeys(accountId, T0 + 1_000)).toBe(1);

    // Ten additions at once with room for three: exactly three land.
    const attempts = await Promise.all(
      Array.from({ length: 10 }, () => {
        const key = fresh();
        return suite.store.accounts.addKeyWithin({ accountId, name: 'race', keyHash: hashApiKey(key), displayPrefix: 'mgw_kkkkkk', now: T0, maxLive: 5 });
      }),
    );
    expect(attempts.filter((a) => a === 'full')).toHaveLength(7);
    expect(await suite.store.accounts.countLiveKeys(accountId, T0)).toBe(5);
    const missing = await suite.store.accounts.addKeyWithin({
      accountId: 'acct_missing',
      name: 'x',
      keyHash: hashApiKey(fresh()),
      displayPrefix: 'x',
      now: T0,
      maxLive: 5,
    });
    expect(missing).toBeUndefined();
  });

  maybe("lists accounts with their user's email and live keys, and an account's keys with their last use", async () => {
    const { accountId, keyId } = await issueKey(suite.store, { plan: 'enterprise', predictionPlan: 'pro', now: T0 + 5 });
    const second = await newKey(accountId, { name: 'ci', now: T0 + 6, expiresAt: T0 + 1_000 });
    if (!second || second === 'full') throw new Error('not added');
    await suite.store.users.create({ accountId, email: 'Ops@Example.com', passwordHash: 'x', now: T0 });
    await suite.store.usage.add([
      { day: '2026-11-24', accountId, keyId, listener: 'A', route: 'r1', requests: 3, lastAt: T0 - 86_400_000 },
      { day: '2026-11-25', accountId, keyId, listener: 'B', route: 'r2', requests: 1, lastAt: T0 + 7 },
      { day: '2026-11-25', accountId, keyId, listener: 'A', route: 'r1', requests: 1, lastAt: T0 + 3 },
    ]);

    const summary = await suite.store.accounts.findAccountSummary(accountId, T0);
    expect(summary).toEqual({
      id: accountId,
      name: 'test-enterprise',
      marketDataPlan: 'enterprise',
      predictionPlan: 'pro',
      createdAt: T0 + 5,
      disabledAt: null,
      changedAt: 0,
      email: 'ops@example.com',
      liveKeys: 2,
    });
    expect((await suite.store.accounts.findAccountSummary(accountId, T0 + 1_000))?.liveKeys).toBe(1);
    expect(await suite.store.accounts.findAccountSummary('acct_missing', T0)).toBeUndefined();
    const listed = await suite.store.accounts.listAccounts(T0);
    expect(listed.find((a) => a.id === accountId)).toEqual(summary);
    expect(listed.filter((a) => a.email === null).length).toBe(listed.length - 1);

    const keys = await suite.store.accounts.keysOfAccount(accountId);
    expect(keys.map((k) => [k.id, k.name, k.lastUsedAt, k.expiresAt])).toEqual([
      [keyId, 'test-enterprise', T0 + 7, null],
      [second.key.id, 'ci', null, T0 + 1_000],
    ]);
    expect(await suite.store.accounts.keysOfAccount('acct_missing')).toEqual([]);
  });
});
