/**
 * The authenticator's caches and poll (src/auth/authenticator.ts) over a stand-in key repository
 * and a fake clock: the exact ends of a cached key's trust, of a remembered refusal and of the
 * pause after a store failure; which refusal a remembered key gets again; what the poll asks for
 * and what it forgets. (test/unit/authenticator.test.ts runs the same on a real store.)
 */
import { tickAsync, pendingTimers, fakeTheClock, realClock } from '../../support/fake-timers.js';
import { generateApiKey, hashApiKey } from '../../../src/auth/api-key.js';
import { createAuthenticator, type KeyRefusal, type Principal } from '../../../src/auth/authenticator.js';
import type { Account } from '../../../src/domain/account.js';
import type { AccountRepository, KeyChange } from '../../../src/store/accounts.js';

type Found = NonNullable<Awaited<ReturnType<AccountRepository['findKeyByHash']>>>;

const T0 = Date.UTC(2026, 10, 24, 12);
const ACCOUNT: Account = { id: 'acct_1', name: 'one', marketDataPlan: 'pro', predictionPlan: 'none' };

/** Keys by hash, the changes the poll reads, and every question asked. */
function repository() {
  const rows = new Map<string, Found>();
  const changes: KeyChange[] = [];
  const lookups: string[] = [];
  const polls: number[] = [];
  let failing: Error | undefined;
  const accounts = {
    findKeyByHash: async (keyHash: string) => {
      lookups.push(keyHash);
      if (failing) throw failing;
      return rows.get(keyHash);
    },
    keyChangesSince: async (since: number) => {
      polls.push(since);
      return changes.filter((c) => c.at >= since);
    },
  } as unknown as AccountRepository;
  const add = (overrides: Partial<Found> = {}) => {
    const key = generateApiKey();
    const row = {
      keyId: `key_${rows.size + 1}`,
      account: ACCOUNT,
      anyOperation: false,
      revokedAt: null,
      expiresAt: null,
      accountDisabled: false,
      ...overrides,
    };
    rows.set(hashApiKey(key), row as Found);
    return { key, row: row as Found };
  };
  return {
    accounts,
    rows,
    changes,
    lookups,
    polls,
    add,
    fail: (error: Error | undefined) => {
      failing = error;
    },
  };
}

const refusalOf = (answer: Principal | KeyRefusal) => ('refused' in answer ? answer : undefined);

describe('how long answers are kept', () => {
  it('a key is trusted for 60 s by default: re-read at its end exactly', async () => {
    const repo = repository();
    const { key } = repo.add();
    const auth = createAuthenticator({ accounts: repo.accounts, pollMs: 60_000 });
    expect(await auth.check(key, T0)).toMatchObject({ keyId: 'key_1', account: ACCOUNT });
    expect(await auth.check(key, T0 + 59_999)).toMatchObject({ keyId: 'key_1' });
    expect(repo.lookups).toHaveLength(1);
    expect(await auth.check(key, T0 + 60_000)).toMatchObject({ keyId: 'key_1' });
    expect(repo.lookups).toHaveLength(2);
  });

  it('a refused key is remembered for one second, with its reason: re-read at its end exactly', async () => {
    const repo = repository();
    const revoked = repo.add({ revokedAt: T0 - 1 });
    const disabled = repo.add({ accountDisabled: true });
    const auth = createAuthenticator({ accounts: repo.accounts, pollMs: 60_000 });
    for (const at of [T0, T0 + 999]) {
      expect(await auth.check(revoked.key, at)).toEqual({ refused: 'revoked' });
      expect(await auth.check(disabled.key, at)).toEqual({ refused: 'disabled' });
    }
    expect(repo.lookups).toHaveLength(2);
    expect(await auth.check(revoked.key, T0 + 1_000)).toEqual({ refused: 'revoked' });
    expect(repo.lookups).toHaveLength(3);
  });

  it('an unknown key is "unknown"; a key found expired in the store says when it expired', async () => {
    const repo = repository();
    const auth = createAuthenticator({ accounts: repo.accounts, pollMs: 60_000, now: () => T0 });
    expect(await auth.check(generateApiKey(), T0)).toEqual({ refused: 'unknown' });
    const expired = repo.add({ expiresAt: T0 });
    expect(await auth.check(expired.key, T0)).toEqual({ refused: 'expired', expiresAt: T0 });
    expect(await auth.check(expired.key, T0 + 10)).toEqual({ refused: 'expired', expiresAt: T0 });
    const later = repo.add({ expiresAt: T0 + 1 });
    expect(refusalOf(await auth.check(later.key, T0))).toBeUndefined();
  });

  it('a revoked key outranks its expiry and its disabled account; an expired one its disabled account', async () => {
    const repo = repository();
    const auth = createAuthenticator({ accounts: repo.accounts, pollMs: 60_000, now: () => T0 });
    const all = repo.add({ revokedAt: T0 - 5, expiresAt: T0 - 1, accountDisabled: true });
    expect(await auth.check(all.key, T0)).toEqual({ refused: 'revoked' });
    const expiredAndDisabled = repo.add({ expiresAt: T0 - 1, accountDisabled: true });
    expect(await auth.check(expiredAndDisabled.key, T0)).toEqual({ refused: 'expired', expiresAt: T0 - 1 });
  });

  it('a key that was refused and then works is admitted once re-read, and is trusted from then on', async () => {
    const repo = repository();
    const { key, row } = repo.add({ accountDisabled: true });
    const auth = createAuthenticator({ accounts: repo.accounts, pollMs: 60_000 });
    expect(await auth.check(key, T0)).toEqual({ refused: 'disabled' });
    repo.rows.set(hashApiKey(key), { ...row, accountDisabled: false });
    expect(refusalOf(await auth.check(key, T0 + 1_000))).toBeUndefined();
    expect(refusalOf(await auth.check(key, T0 + 1_500))).toBeUndefined();
    expect(repo.lookups).toHaveLength(2);
  });

  it('a key that stops working is refused when re-read, and its entry is gone', async () => {
    const repo = repository();
    const { key, row } = repo.add();
    const auth = createAuthenticator({ accounts: repo.accounts, pollMs: 60_000, ttlMs: 1_000 });
    expect(refusalOf(await auth.check(key, T0))).toBeUndefined();
    repo.rows.set(hashApiKey(key), { ...row, revokedAt: T0 });
    expect(await auth.check(key, T0 + 1_000)).toEqual({ refused: 'revoked' });
    // Even when the store then fails, the entry that was dropped cannot answer.
    repo.fail(new Error('down'));
    await expect(auth.check(key, T0 + 5_000)).rejects.toThrow('down');
  });
});

describe('when the store fails', () => {
  it('a known key is answered from its entry, the store asked again 2 s after the failure exactly', async () => {
    const repo = repository();
    const { key } = repo.add();
    const stale: unknown[] = [];
    const auth = createAuthenticator({ accounts: repo.accounts, pollMs: 60_000, ttlMs: 1_000, onStale: (error) => stale.push(error) });
    const entry = await auth.check(key, T0);
    repo.fail(new Error('connect ECONNREFUSED'));
    expect(await auth.check(key, T0 + 5_000)).toBe(entry);
    expect(repo.lookups).toHaveLength(2);
    expect(stale).toHaveLength(1);
    expect(await auth.check(key, T0 + 6_999)).toBe(entry);
    expect(repo.lookups).toHaveLength(2);
    expect(await auth.check(key, T0 + 7_000)).toBe(entry);
    expect(repo.lookups).toHaveLength(3);
    // Once the store answers again, the key is read and trusted again.
    repo.fail(undefined);
    expect(await auth.check(key, T0 + 9_000)).toMatchObject({ keyId: 'key_1' });
    expect(await auth.check(key, T0 + 9_500)).toMatchObject({ keyId: 'key_1' });
    expect(repo.lookups).toHaveLength(4);
  });

  it('without an onStale hook, a known key is still answered from its entry; an unknown one is the error', async () => {
    const repo = repository();
    const { key } = repo.add();
    const auth = createAuthenticator({ accounts: repo.accounts, pollMs: 60_000, ttlMs: 1_000 });
    const entry = await auth.check(key, T0);
    repo.fail(new Error('connect ECONNREFUSED'));
    expect(await auth.check(key, T0 + 5_000)).toBe(entry);
    await expect(auth.check(generateApiKey(), T0 + 5_000)).rejects.toThrow('ECONNREFUSED');
  });

  it('concurrent checks of one key share one lookup, and the next check after it asks again', async () => {
    const repo = repository();
    const { key } = repo.add();
    const auth = createAuthenticator({ accounts: repo.accounts, pollMs: 60_000, ttlMs: 1_000 });
    await Promise.all([auth.check(key, T0), auth.check(key, T0), auth.check(key, T0)]);
    expect(repo.lookups).toHaveLength(1);
    await auth.check(key, T0 + 1_000);
    expect(repo.lookups).toHaveLength(2);
  });
});

describe('a known key being re-read', () => {
  afterEach(() => realClock());

  /** A key read once at T0 on a fake clock, trusted for a second, whose row then changes. */
  async function knownKey() {
    fakeTheClock({ now: T0 });
    const repo = repository();
    const { key, row } = repo.add();
    const auth = createAuthenticator({ accounts: repo.accounts, pollMs: 60_000, ttlMs: 1_000 });
    const entry = await auth.check(key, T0);
    repo.rows.set(hashApiKey(key), { ...row, anyOperation: true });
    return { repo, key, auth, entry };
  }

  it('slowly: answered from its entry after 250 ms; the re-read goes on and its answer is kept', async () => {
    const { repo, key, auth, entry } = await knownKey();
    let release: (() => void) | undefined;
    const original = repo.accounts.findKeyByHash;
    repo.accounts.findKeyByHash = (keyHash) =>
      new Promise((resolve) => {
        release = () => resolve(original(keyHash));
      });
    let answered: Principal | KeyRefusal | undefined;
    const pending = auth.check(key, T0 + 2_000).then((a) => {
      answered = a;
    });
    await tickAsync(249);
    expect(answered).toBeUndefined();
    await tickAsync(1);
    await pending;
    expect(answered).toBe(entry);
    release!();
    await tickAsync(0);
    repo.accounts.findKeyByHash = original;
    expect(await auth.check(key, T0 + 2_500)).toMatchObject({ anyOperation: true });
  });

  it('a key never seen waits for its lookup, however slow: there is no entry to answer with', async () => {
    const { repo, auth } = await knownKey();
    const other = repo.add();
    const original = repo.accounts.findKeyByHash;
    let release: (() => void) | undefined;
    repo.accounts.findKeyByHash = (keyHash) =>
      new Promise((resolve) => {
        release = () => resolve(original(keyHash));
      });
    let answered: Principal | KeyRefusal | undefined;
    const pending = auth.check(other.key, T0).then((a) => {
      answered = a;
    });
    await tickAsync(1_000);
    expect(answered).toBeUndefined();
    release!();
    await pending;
    expect(answered).toMatchObject({ keyId: other.row.keyId });
  });

  it('quickly: answered by the re-read, leaving no timer behind', async () => {
    const { key, auth } = await knownKey();
    expect(await auth.check(key, T0 + 2_000)).toMatchObject({ anyOperation: true });
    expect(pendingTimers()).toBe(0);
  });
});

describe('the poll', () => {
  afterEach(() => realClock());

  it('every pollMs, asks for the changes since its watermark less 10 s, and forgets the keys changed', async () => {
    fakeTheClock({ now: T0 });
    const repo = repository();
    const kept = repo.add();
    const changed = repo.add();
    const refused = repo.add({ revokedAt: T0 - 1 });
    const errors: unknown[] = [];
    const auth = createAuthenticator({ accounts: repo.accounts, pollMs: 500, ttlMs: 3_600_000, onError: (e) => errors.push(e) });
    for (const k of [kept, changed, refused]) await auth.check(k.key, T0);
    expect(repo.lookups).toHaveLength(3);
    auth.start();
    await tickAsync(499);
    expect(repo.polls).toEqual([]);
    await tickAsync(1);
    expect(repo.polls).toEqual([T0 - 10_000]);
    // A change stamped 5 s back (another writer's clock) is still seen; both caches forget the key.
    repo.changes.push({ keyHash: hashApiKey(changed.key), at: T0 - 5_000 }, { keyHash: hashApiKey(refused.key), at: T0 - 5_000 });
    repo.rows.set(hashApiKey(refused.key), { ...refused.row, revokedAt: null });
    await tickAsync(500);
    expect(repo.polls).toEqual([T0 - 10_000, T0 - 10_000]);
    const now = Date.now();
    await auth.check(kept.key, now);
    expect(repo.lookups).toHaveLength(3);
    expect(refusalOf(await auth.check(changed.key, now))).toBeUndefined();
    expect(refusalOf(await auth.check(refused.key, now))).toBeUndefined(); // re-read at once, not a second later
    expect(repo.lookups).toHaveLength(5);
    // A change stamped later than the clock moves the watermark there.
    repo.changes.push({ keyHash: hashApiKey(kept.key), at: T0 + 60_000 });
    await tickAsync(500);
    await tickAsync(500);
    expect(repo.polls.at(-1)).toBe(T0 + 60_000 - 10_000);
    // As time passes, the watermark follows the clock, 10 s back.
    await tickAsync(120_000);
    expect(repo.polls.at(-1)).toBe(Date.now() - 500 - 10_000 - 10_000);
    expect(errors).toEqual([]);
    auth.stop();
  });

  it('the watermark is the newest change, whatever order the changes come in', async () => {
    fakeTheClock({ now: T0 });
    const repo = repository();
    const auth = createAuthenticator({ accounts: repo.accounts, pollMs: 500 });
    repo.changes.push({ keyHash: 'aa', at: T0 + 60_000 }, { keyHash: 'bb', at: T0 - 5_000 });
    auth.start();
    await tickAsync(1_000);
    expect(repo.polls).toEqual([T0 - 10_000, T0 + 50_000]);
    auth.stop();
  });

  it('stopped while a poll is in flight, it does not poll again', async () => {
    fakeTheClock({ now: T0 });
    const repo = repository();
    const auth = createAuthenticator({ accounts: repo.accounts, pollMs: 100 });
    let finish: (() => void) | undefined;
    const poll = repo.accounts.keyChangesSince;
    repo.accounts.keyChangesSince = (since) => {
      repo.polls.push(since);
      return new Promise((resolve) => {
        finish = () => resolve([]);
      });
    };
    auth.start();
    await tickAsync(100);
    expect(repo.polls).toHaveLength(1);
    auth.stop();
    finish!();
    repo.accounts.keyChangesSince = poll;
    await tickAsync(1_000);
    expect(repo.polls).toHaveLength(1);
    expect(pendingTimers()).toBe(0);
  });

  it('without an onError hook, a failing poll is dropped quietly and the poll goes on', async () => {
    fakeTheClock({ now: T0 });
    const repo = repository();
    const auth = createAuthenticator({ accounts: repo.accounts, pollMs: 100 });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      repo.accounts.keyChangesSince = async (since) => {
        repo.polls.push(since);
        throw new Error('poll failed');
      };
      auth.start();
      await tickAsync(200);
      realClock();
      await new Promise((resolve) => setTimeout(resolve, 20)); // unhandled rejections are reported on a later turn
      expect(repo.polls).toHaveLength(2);
      expect(unhandled).toEqual([]);
    } finally {
      auth.stop();
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('a failing poll is reported and the poll goes on; stop ends it', async () => {
    fakeTheClock({ now: T0 });
    const repo = repository();
    const errors: unknown[] = [];
    const auth = createAuthenticator({ accounts: repo.accounts, pollMs: 100, onError: (e) => errors.push(e) });
    const failure = new Error('poll failed');
    const poll = repo.accounts.keyChangesSince;
    repo.accounts.keyChangesSince = async () => {
      repo.polls.push(-1);
      throw failure;
    };
    auth.start();
    await tickAsync(100);
    expect(errors).toEqual([failure]);
    repo.accounts.keyChangesSince = poll;
    await tickAsync(100);
    expect(repo.polls).toHaveLength(2);
    auth.stop();
    await tickAsync(1_000);
    expect(repo.polls).toHaveLength(2);
    expect(pendingTimers()).toBe(0);
  });
});

describe('forgetKeys', () => {
  it('drops the named keys only, whatever their age', async () => {
    const repo = repository();
    const a = repo.add();
    const b = repo.add();
    const c = repo.add();
    const auth = createAuthenticator({ accounts: repo.accounts, pollMs: 60_000 });
    for (const k of [a, b, c]) await auth.check(k.key, T0);
    auth.forgetKeys([a.row.keyId, c.row.keyId]);
    for (const k of [a, b, c]) await auth.check(k.key, T0 + 1);
    expect(repo.lookups).toEqual([a, b, c, a, c].map((k) => hashApiKey(k.key)));
  });
});

it('authenticate: the principal, or null for any refusal', async () => {
  const repo = repository();
  const { key } = repo.add();
  const auth = createAuthenticator({ accounts: repo.accounts, pollMs: 60_000 });
  expect(await auth.authenticate(key, T0)).toMatchObject({ keyId: 'key_1' });
  expect(await auth.authenticate('mgw_short', T0)).toBeNull();
  expect(await auth.authenticate(generateApiKey(), T0)).toBeNull();
});
