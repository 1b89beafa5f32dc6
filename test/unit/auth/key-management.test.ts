/**
 * The rules every front applies to keys (src/auth/key-management.ts), on a real store of each engine:
 * the live-key limit, expiries, an account's own keys only, the activity log.
 */
import { hashApiKey } from '../../../src/auth/api-key.js';
import { type Actor, CLI_ACTOR, issueKey, listKeys, openAccount, revokeKey, rotateKey } from '../../../src/auth/key-management.js';
import { type Account, MAX_LIVE_KEYS_PER_ACCOUNT } from '../../../src/domain/account.js';
import { DomainError } from '../../../src/domain/errors.js';
import { describeOnEachEngine } from '../../support/store-suite.js';
import { accountScope, OPERATOR_SCOPE } from '../../../src/domain/scope.js';

const T0 = Date.UTC(2026, 10, 25, 12);
const DASHBOARD: Actor = { clientAddress: '203.0.113.7' };

/** The promise's refusal: a DomainError of `kind` whose message matches. */
async function refused(promise: Promise<unknown>, kind: DomainError['kind'], message: RegExp): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).kind).toBe(kind);
  expect((error as DomainError).message).toMatch(message);
}

describeOnEachEngine('key management', (suite) => {
  const { maybe } = suite;
  const newAccount = async (): Promise<Account> =>
    (await openAccount(suite.store, { name: 'first', marketDataPlan: 'free', predictionPlan: 'none' }, T0, CLI_ACTOR)).account;

  maybe('issues keys up to the limit; a revoked or expired key does not count; a rotation revoking the old one passes at the limit', async () => {
    const account = await newAccount();
    const expiring = await issueKey(suite.store, account, { name: 'short', expiresAt: T0 + 1_000 }, T0, DASHBOARD);
    const revoked = await issueKey(suite.store, account, { name: 'gone' }, T0, DASHBOARD);
    await revokeKey(suite.store, revoked.record.id, T0, DASHBOARD, OPERATOR_SCOPE);
    // The first key, the expiring one, and 18 more: 20 live.
    for (let i = 0; i < MAX_LIVE_KEYS_PER_ACCOUNT - 2; i++) await issueKey(suite.store, account, { name: `k${i}` }, T0, DASHBOARD);
    await refused(issueKey(suite.store, account, { name: 'one too many' }, T0, DASHBOARD), 'invalid', /at most 20 live keys .*revoke one first/);
    await refused(rotateKey(suite.store, expiring.record.id, T0, DASHBOARD, { scope: OPERATOR_SCOPE }), 'invalid', /at most 20 live keys/);
    const rotated = await rotateKey(suite.store, expiring.record.id, T0, DASHBOARD, { scope: OPERATOR_SCOPE, revokeOld: true });
    expect(rotated.record).toMatchObject({ name: 'short', expiresAt: T0 + 1_000 });
    expect(await suite.store.accounts.countLiveKeys(account.id, T0)).toBe(MAX_LIVE_KEYS_PER_ACCOUNT);

    // Once the rotated key has expired, there is room for one more.
    const later = T0 + 1_000;
    const issued = await issueKey(suite.store, account, { name: 'room again' }, later, DASHBOARD);
    expect(issued.key).toMatch(/^mgw_/);
    expect((await suite.store.accounts.findKeyByHash(hashApiKey(issued.key)))?.keyId).toBe(issued.record.id);
    await refused(issueKey(suite.store, account, { name: 'full again' }, later, DASHBOARD), 'invalid', /at most 20/);
  });

  maybe('refuses an expiry that has passed; an expired key cannot be rotated', async () => {
    const account = await newAccount();
    await refused(issueKey(suite.store, account, { name: 'late', expiresAt: T0 }, T0, CLI_ACTOR), 'invalid', /must be in the future/);
    await refused(
      openAccount(suite.store, { name: 'late', marketDataPlan: 'free', predictionPlan: 'none', expiresAt: T0 - 1 }, T0, CLI_ACTOR),
      'invalid',
      /must be in the future/,
    );
    const short = await issueKey(suite.store, account, { name: 'short', expiresAt: T0 + 10 }, T0, CLI_ACTOR);
    await refused(rotateKey(suite.store, short.record.id, T0 + 10, CLI_ACTOR, { scope: OPERATOR_SCOPE }), 'invalid', /is expired; create a new key/);
  });

  maybe("never touches another account's key where an account is named", async () => {
    const mine = await newAccount();
    const theirs = await openAccount(suite.store, { name: 'theirs', marketDataPlan: 'pro', predictionPlan: 'none' }, T0, CLI_ACTOR);
    await refused(revokeKey(suite.store, theirs.record.id, T0, DASHBOARD, accountScope(mine.id)), 'not_found', /no key with id key_\w+ on this account/);
    await refused(rotateKey(suite.store, theirs.record.id, T0, DASHBOARD, { scope: accountScope(mine.id) }), 'not_found', /on this account/);
    await refused(revokeKey(suite.store, 'key_missing', T0, CLI_ACTOR, OPERATOR_SCOPE), 'not_found', /no key with id key_missing/);
    const found = await suite.store.accounts.findKeyByHash(hashApiKey(theirs.key));
    expect(found).toMatchObject({ revokedAt: null });
    expect((await listKeys(suite.store, theirs.account)).map((k) => k.id)).toEqual([theirs.record.id]);
    expect(await suite.store.activity.list(theirs.account.id)).toEqual([expect.objectContaining({ kind: 'key_created' })]);
  });

  maybe('writes each change to the activity log with the actor, naming the key and never showing it', async () => {
    const created = await openAccount(suite.store, { name: 'log', marketDataPlan: 'free', predictionPlan: 'none' }, T0, CLI_ACTOR);
    const second = await issueKey(suite.store, created.account, { name: 'ci', expiresAt: T0 + 86_400_000 }, T0 + 1, DASHBOARD);
    const rotated = await rotateKey(suite.store, second.record.id, T0 + 2, DASHBOARD, { scope: OPERATOR_SCOPE, revokeOld: true });
    const again = await revokeKey(suite.store, second.record.id, T0 + 3, DASHBOARD, OPERATOR_SCOPE);
    expect(again).toMatchObject({ already: true, key: { revokedAt: T0 + 2 } });
    const revoked = await revokeKey(suite.store, created.record.id, T0 + 4, CLI_ACTOR, OPERATOR_SCOPE);
    expect(revoked).toMatchObject({ already: false, key: { revokedAt: T0 + 4 } });

    const log = await suite.store.activity.list(created.account.id);
    expect(log.map((e) => [e.kind, e.clientAddress, e.at])).toEqual([
      ['key_revoked', null, T0 + 4],
      ['key_rotated', DASHBOARD.clientAddress, T0 + 2],
      ['key_created', DASHBOARD.clientAddress, T0 + 1],
      ['key_created', null, T0],
    ]);
    expect(log[0]!.detail).toBe(`key ${created.record.id} "log" revoked`);
    expect(log[1]!.detail).toBe(`key ${rotated.record.id} "ci" created to replace ${second.record.id}, which is revoked, expires 2026-11-26T12:00:00.000Z`);
    expect(log[2]!.detail).toBe(`key ${second.record.id} "ci" created, expires 2026-11-26T12:00:00.000Z`);
    const text = JSON.stringify(log);
    for (const key of [created.key, second.key, rotated.key]) expect(text).not.toContain(key.slice(4, 20));
  });
});
