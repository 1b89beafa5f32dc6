/** The same store tests on SQLite and PostgreSQL: migrations, keys, quotes, candles, alerts. */
import { hashApiKey } from '../../src/auth/api-key.js';
import { createStore, openStore } from '../../src/store/index.js';
import { issueKey } from '../support/keys.js';
import { describeOnEachEngine } from '../support/store-suite.js';
import { accountScope, OPERATOR_SCOPE } from '../../src/domain/scope.js';

describeOnEachEngine('store', (suite) => {
  const { maybe } = suite;
  const name = suite.engine.name;
  maybe('runs migrations idempotently: a second open of the same database works and keeps data', async () => {
    await suite.store.markets.upsertMarkets([{ symbol: 'XRP/USD', name: 'XRP', type: 'crypto', source: 'demo', staleAfterMs: 1, halted: false }]);
    const again = createStore(await openStore(suite.target));
    expect((await again.markets.listMarkets()).map((m) => m.symbol)).toContain('XRP/USD');
    await again.connection.close();
  });

  maybe('creates an account with a hashed key, finds it by hash, revokes it', async () => {
    const key = `mgw_${'a'.repeat(40)}${name}`;
    const { account, key: record } = await suite.store.accounts.createAccountWithKey({
      name: 'acme',
      marketDataPlan: 'pro',
      predictionPlan: 'none',
      keyHash: hashApiKey(key),
      displayPrefix: key.slice(0, 10),
      now: 1_000,
    });
    const found = await suite.store.accounts.findKeyByHash(hashApiKey(key));
    expect(found).toEqual({
      keyId: record.id,
      keyHash: hashApiKey(key),
      revokedAt: null,
      expiresAt: null,
      anyOperation: false,
      account,
      accountDisabled: false,
    });
    expect(await suite.store.accounts.findKeyByHash(hashApiKey(`${key}x`))).toBeUndefined();

    expect(await suite.store.accounts.revokeKey(record.id, 2_000)).toBe(true);
    expect(await suite.store.accounts.revokeKey(record.id, 3_000)).toBe(true);
    expect((await suite.store.accounts.findKeyById(record.id))?.revokedAt).toBe(2_000);
    expect(await suite.store.accounts.revokeKey('key_missing', 3_000)).toBe(false);
    expect(await suite.store.accounts.keyChangesSince(1_999)).toEqual([{ keyHash: hashApiKey(key), at: 2_000 }]);
    expect(await suite.store.accounts.keyChangesSince(2_000)).toEqual([]);

    const listed = await suite.store.accounts.listKeys();
    const mine = listed.find((k) => k.id === record.id);
    expect(mine).toMatchObject({ marketDataPlan: 'pro', predictionPlan: 'none', revokedAt: 2_000 });
    // The plaintext key is nowhere in the listing.
    expect(JSON.stringify(listed)).not.toContain(key);

    // A second key on the same account (rotation): found by its own hash, on the same account and plans.
    const second = `mgw_${'c'.repeat(40)}${name}`;
    const added = await suite.store.accounts.addKey({
      accountId: account.id,
      name: 'acme rotated',
      keyHash: hashApiKey(second),
      displayPrefix: second.slice(0, 10),
      now: 4_000,
    });
    expect(added?.account).toEqual(account);
    expect(added?.key).toMatchObject({ accountId: account.id, name: 'acme rotated', createdAt: 4_000, revokedAt: null });
    expect(added!.key.id).not.toBe(record.id);
    expect(await suite.store.accounts.findKeyByHash(hashApiKey(second))).toEqual({
      keyId: added!.key.id,
      keyHash: hashApiKey(second),
      revokedAt: null,
      expiresAt: null,
      anyOperation: false,
      account,
      accountDisabled: false,
    });
    expect(
      await suite.store.accounts.addKey({ accountId: 'acct_missing', name: 'x', keyHash: hashApiKey(`${second}x`), displayPrefix: 'mgw_cccccc', now: 4_000 }),
    ).toBeUndefined();
  });

  maybe('a key may be exempt from trusted-document enforcement: when created, or set and unset later', async () => {
    const { key, keyId, accountId } = await issueKey(suite.store, { plan: 'free', anyOperation: true, now: 1_000 });
    expect((await suite.store.accounts.findKeyById(keyId))?.anyOperation).toBe(true);
    expect((await suite.store.accounts.findKeyByHash(hashApiKey(key)))?.anyOperation).toBe(true);
    const other = `mgw_${'f'.repeat(40)}${name}`;
    const added = await suite.store.accounts.addKey({
      accountId,
      name: 'plain',
      keyHash: hashApiKey(other),
      displayPrefix: 'mgw_ffffff',
      now: 2_000,
    });
    expect(added?.key.anyOperation).toBe(false);

    expect(await suite.store.accounts.setAnyOperation(keyId, false)).toBe(true);
    expect(await suite.store.accounts.setAnyOperation(added!.key.id, true)).toBe(true);
    expect(await suite.store.accounts.setAnyOperation('key_missing', true)).toBe(false);
    expect((await suite.store.accounts.findKeyById(keyId))?.anyOperation).toBe(false);
    expect((await suite.store.accounts.findKeyByHash(hashApiKey(other)))?.anyOperation).toBe(true);
    const listed = await suite.store.accounts.listKeys();
    expect(listed.filter((k) => k.accountId === accountId).map((k) => [k.id, k.anyOperation])).toEqual([
      [keyId, false],
      [added!.key.id, true],
    ]);
  });

  maybe('upserts markets and quotes, keeping the newest quote', async () => {
    await suite.store.markets.upsertMarkets([
      { symbol: 'BTC/USD', name: 'Bitcoin', type: 'crypto', source: 'demo', staleAfterMs: 60_000, halted: false },
      { symbol: 'EUR/USD', name: 'Euro', type: 'forex', source: 'demo', staleAfterMs: 60_000, halted: true },
    ]);
    await suite.store.markets.upsertMarkets([
      { symbol: 'BTC/USD', name: 'Bitcoin / US Dollar', type: 'crypto', source: 'demo', staleAfterMs: 90_000, halted: false },
    ]);
    const markets = await suite.store.markets.listMarkets();
    expect(markets.filter((m) => m.symbol !== 'XRP/USD').map((m) => [m.symbol, m.name, m.halted, m.staleAfterMs])).toEqual([
      ['BTC/USD', 'Bitcoin / US Dollar', false, 90_000],
      ['EUR/USD', 'Euro', true, 60_000],
    ]);

    const q = { symbol: 'BTC/USD', price: 97_000.12345678, change24h: -2.35, volume24h: 1234.5, observedAt: 2_000 };
    await suite.store.markets.upsertQuotes([q]);
    await suite.store.markets.upsertQuotes([{ ...q, price: 1, observedAt: 1_000 }]); // older: ignored
    await suite.store.markets.upsertQuotes([{ ...q, price: 98_000, observedAt: 3_000 }]);
    expect(await suite.store.markets.listQuotes()).toEqual([{ ...q, price: 98_000, observedAt: 3_000 }]);
  });

  maybe('upserts candles and returns the latest ones oldest first', async () => {
    const base = { symbol: 'BTC/USD', interval: '1h' as const, open: 1, high: 2, low: 0.5, close: 1.5, volume: 10 };
    const hour = 3_600_000;
    await suite.store.markets.upsertCandles([0, 1, 2, 3].map((i) => ({ ...base, openTime: i * hour })));
    await suite.store.markets.upsertCandles([{ ...base, openTime: 3 * hour, close: 1.75 }]);
    const recent = await suite.store.markets.recentCandles('BTC/USD', '1h', 2);
    expect(recent.map((c) => [c.openTime, c.close])).toEqual([
      [2 * hour, 1.5],
      [3 * hour, 1.75],
    ]);
    await suite.store.markets.pruneCandles('1h', 2 * hour);
    expect((await suite.store.markets.recentCandles('BTC/USD', '1h', 10)).length).toBe(2);
  });

  maybe('stores price alerts newest first and transitions each exactly once', async () => {
    const { account } = await suite.store.accounts.createAccountWithKey({
      name: 'alerts',
      marketDataPlan: 'pro',
      predictionPlan: 'none',
      keyHash: hashApiKey(`mgw_${'b'.repeat(40)}${name}`),
      displayPrefix: 'mgw_bbbbbb',
      now: 1,
    });
    const common = { accountId: account.id, threshold: 100, signal: null, expiresAt: null };
    const first = await suite.store.priceAlerts.create({ ...common, symbol: 'BTC/USD', kind: 'price_above', now: 10 });
    const second = await suite.store.priceAlerts.create({ ...common, symbol: 'BTC/USD', kind: 'price_below', now: 10 });
    const third = await suite.store.priceAlerts.create({ ...common, symbol: 'EUR/USD', kind: 'price_above', now: 20 });

    const all = await suite.store.priceAlerts.list({ scope: accountScope(account.id) });
    expect(all.map((a) => a.id)).toEqual([third.id, second.id, first.id]);
    expect((await suite.store.priceAlerts.list({ scope: accountScope(account.id), symbol: 'BTC/USD' })).length).toBe(2);

    expect(await suite.store.priceAlerts.transition(first.id, 'triggered', 50)).toBe(true);
    expect(await suite.store.priceAlerts.transition(first.id, 'triggered', 60)).toBe(false);
    expect(await suite.store.priceAlerts.transition(first.id, 'expired', 70)).toBe(false);
    const triggered = await suite.store.priceAlerts.list({ scope: accountScope(account.id), status: 'triggered' });
    expect(triggered).toEqual([{ ...first, status: 'triggered', triggeredAt: 50 }]);
    expect((await suite.store.priceAlerts.listActive()).map((a) => a.id).sort()).toEqual([second.id, third.id].sort());

    // Cancelling: only the owner's alert, once; then gone from every listing and from the active set the evaluator reads.
    expect(await suite.store.priceAlerts.cancel(second.id, accountScope('acct_someone_else'))).toBeUndefined();
    expect(await suite.store.priceAlerts.cancel(second.id, accountScope(account.id))).toEqual(second);
    expect(await suite.store.priceAlerts.cancel(second.id, OPERATOR_SCOPE)).toBeUndefined();
    expect(await suite.store.priceAlerts.findById(second.id, OPERATOR_SCOPE)).toBeUndefined();
    expect(await suite.store.priceAlerts.findById(third.id, OPERATOR_SCOPE)).toEqual(third);
    expect(await suite.store.priceAlerts.findById(third.id, accountScope('acct_someone_else'))).toBeUndefined();
    expect((await suite.store.priceAlerts.listActive()).map((a) => a.id)).toEqual([third.id]);
    expect((await suite.store.priceAlerts.list({ scope: OPERATOR_SCOPE })).map((a) => a.id)).toEqual(expect.arrayContaining([first.id, third.id]));
    // Without an account (the operator's CLI), any alert.
    expect(await suite.store.priceAlerts.cancel(first.id, OPERATOR_SCOPE)).toEqual({ ...first, status: 'triggered', triggeredAt: 50 });
  });
});
