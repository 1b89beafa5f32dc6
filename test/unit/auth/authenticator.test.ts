/**
 * The authenticator on a real embedded store: keys are read once and then served from memory,
 * malformed keys never reach the store, unknown keys are remembered briefly, and a revocation
 * written by another process is picked up by the poll.
 */
import { generateApiKey, hashApiKey } from '../../../src/auth/api-key.js';
import { createAuthenticator } from '../../../src/auth/authenticator.js';
import { createStore, openStore, type Store } from '../../../src/store/index.js';
import { tempDataDir } from '../../support/engines.js';
import { issueKey } from '../../support/keys.js';
import { within } from '../../support/wait.js';

const T0 = Date.UTC(2026, 10, 24, 12);
let store: Store;
beforeAll(async () => {
  store = createStore(await openStore({ dataDir: tempDataDir() }));
});
afterAll(() => store?.connection.close());

async function newKey() {
  const { key, keyId } = await issueKey(store, { now: T0 });
  return { key, id: keyId };
}

/** The store's key lookups, counted (the real repository, observed). */
function countLookups() {
  const original = store.accounts.findKeyByHash;
  let calls = 0;
  store.accounts.findKeyByHash = (keyHash) => {
    calls++;
    return original(keyHash);
  };
  return {
    count: () => calls,
    restore: () => {
      store.accounts.findKeyByHash = original;
    },
  };
}

it('reads a key once, then answers from memory until its TTL passes', async () => {
  const { key } = await newKey();
  const auth = createAuthenticator({ accounts: store.accounts, pollMs: 60_000, ttlMs: 60_000 });
  const lookups = countLookups();
  try {
    const first = await auth.authenticate(key, T0);
    expect(first?.account).toMatchObject({ marketDataPlan: 'pro' });
    for (let i = 0; i < 5; i++) expect(await auth.authenticate(key, T0 + 1_000)).toEqual(first);
    expect(lookups.count()).toBe(1);
    await auth.authenticate(key, T0 + 61_000);
    expect(lookups.count()).toBe(2);
  } finally {
    lookups.restore();
  }
});

it("carries the key's exemption from trusted-document enforcement; a change is seen when the cached entry expires", async () => {
  const { key, id } = await newKey();
  const auth = createAuthenticator({ accounts: store.accounts, pollMs: 60_000, ttlMs: 60_000 });
  expect(await auth.authenticate(key, T0)).toMatchObject({ keyId: id, anyOperation: false });
  await store.accounts.setAnyOperation(id, true);
  expect((await auth.authenticate(key, T0 + 59_000))?.anyOperation).toBe(false);
  expect((await auth.authenticate(key, T0 + 61_000))?.anyOperation).toBe(true);
  await store.accounts.setAnyOperation(id, false);
  expect((await auth.authenticate(key, T0 + 122_000))?.anyOperation).toBe(false);
});

it('never looks up a malformed key, and remembers an unknown one for a second only', async () => {
  const auth = createAuthenticator({ accounts: store.accounts, pollMs: 60_000 });
  const lookups = countLookups();
  try {
    for (const malformed of ['', 'not-a-key', 'mgw_short', `Bearer ${generateApiKey()}`]) expect(await auth.authenticate(malformed, T0)).toBeNull();
    expect(lookups.count()).toBe(0);
    const unknown = generateApiKey();
    expect(await auth.authenticate(unknown, T0)).toBeNull();
    expect(await auth.authenticate(unknown, T0 + 500)).toBeNull();
    expect(lookups.count()).toBe(1);
    expect(await auth.authenticate(unknown, T0 + 1_500)).toBeNull();
    expect(lookups.count()).toBe(2);
  } finally {
    lookups.restore();
  }
});

it('a key revoked in the store (by the CLI, say) is refused once the poll has seen it', async () => {
  const { key, id } = await newKey();
  const auth = createAuthenticator({ accounts: store.accounts, pollMs: 20, ttlMs: 3_600_000 });
  auth.start();
  try {
    expect(await auth.authenticate(key)).not.toBeNull();
    await store.accounts.revokeKey(id, Date.now());
    // Cached for an hour, yet refused as soon as a poll has run.
    await within(5_000, async () => (await auth.authenticate(key)) === null);
  } finally {
    auth.stop();
  }
});

it('200 concurrent requests with one uncached key share one store lookup', async () => {
  const { key } = await newKey();
  const auth = createAuthenticator({ accounts: store.accounts, pollMs: 60_000 });
  const lookups = countLookups();
  try {
    const answers = await Promise.all(Array.from({ length: 200 }, () => auth.authenticate(key, T0)));
    expect(new Set(answers.map((a) => a?.keyId)).size).toBe(1);
    expect(answers[0]).not.toBeNull();
    expect(lookups.count()).toBe(1);
  } finally {
    lookups.restore();
  }
});

/**
 * A bound on memory: the caches' sizes, which no mutant changes (Stryker leaves number literals
 * alone), so under mutation testing (npm run test:mutation) it is skipped: it would only add its
 * seconds to every mutant of `check`.
 */
const outsideMutationTesting = process.env.STRYKER_MUTATOR_WORKER === undefined ? it : it.skip;

outsideMutationTesting(
  '100 000 random keys do not evict a key that works',
  async () => {
    const { key } = await newKey();
    const auth = createAuthenticator({ accounts: store.accounts, pollMs: 60_000 });
    expect(await auth.authenticate(key, T0)).not.toBeNull();
    for (let i = 0; i < 100_000; i += 1_000) {
      await Promise.all(Array.from({ length: 1_000 }, () => auth.authenticate(generateApiKey(), T0 + 1)));
    }
    const lookups = countLookups();
    try {
      expect(await auth.authenticate(key, T0 + 2)).not.toBeNull();
      expect(lookups.count()).toBe(0); // still cached
    } finally {
      lookups.restore();
    }
  },
  120_000,
); // 100 000 hashes and lookups: seconds, more on a busy machine

it('while the store cannot answer, a key the instance knew stays admitted; an unknown one is an error', async () => {
  const own = createStore(await openStore({ dataDir: tempDataDir() }));
  const { key } = await issueKey(own, { now: T0 });
  const stale: unknown[] = [];
  const auth = createAuthenticator({ accounts: own.accounts, pollMs: 60_000, ttlMs: 60_000, onStale: (error) => stale.push(error) });
  const known = await auth.authenticate(key, T0);
  await own.connection.close(); // the store is gone: every query fails
  // Past the TTL, the lookup fails and the cached entry answers.
  let lookups = 0;
  const failing = own.accounts.findKeyByHash;
  own.accounts.findKeyByHash = (keyHash) => {
    lookups++;
    return failing(keyHash);
  };
  expect(await auth.authenticate(key, T0 + 120_000)).toEqual(known);
  expect(stale).toHaveLength(1);
  // For the next two seconds it does not wait on the store again; then it tries once more.
  expect(await auth.authenticate(key, T0 + 121_000)).toEqual(known);
  expect(lookups).toBe(1);
  expect(await auth.authenticate(key, T0 + 122_500)).toEqual(known);
  expect(lookups).toBe(2);
  await expect(auth.authenticate(generateApiKey(), T0 + 120_000)).rejects.toThrow();
});

it("refuses a key from its expiry on, by the service's clock, also while its entry is cached", async () => {
  const { accountId } = await issueKey(store, { now: T0 });
  const key = generateApiKey();
  await store.accounts.addKeyWithin({
    accountId,
    name: 'temp',
    keyHash: hashApiKey(key),
    displayPrefix: 'mgw_tttttt',
    now: T0,
    expiresAt: T0 + 10_000,
    maxLive: 20,
  });
  let clock = T0;
  const auth = createAuthenticator({ accounts: store.accounts, pollMs: 60_000, ttlMs: 3_600_000, now: () => clock });
  const lookups = countLookups();
  try {
    expect(await auth.authenticate(key, T0)).not.toBeNull();
    clock = T0 + 9_999;
    expect(await auth.authenticate(key, T0)).not.toBeNull();
    clock = T0 + 10_000;
    expect(await auth.authenticate(key, T0)).toBeNull();
    expect(lookups.count()).toBe(1); // refused on the cached entry, without asking the store
    // Read again (a new instance, say): the store's row says the same.
    const other = createAuthenticator({ accounts: store.accounts, pollMs: 60_000, now: () => clock });
    expect(await other.authenticate(key, T0)).toBeNull();
  } finally {
    lookups.restore();
  }
});

it("a disabled account's cached key is refused once the poll has seen the change, and admitted again once enabled; a new plan is read", async () => {
  const { key, accountId } = await issueKey(store, { plan: 'free', now: T0 });
  const auth = createAuthenticator({ accounts: store.accounts, pollMs: 20, ttlMs: 3_600_000 });
  auth.start();
  try {
    expect((await auth.authenticate(key))?.account.marketDataPlan).toBe('free');
    await store.accounts.setPlans(accountId, { marketDataPlan: 'pro' }, Date.now());
    await within(5_000, async () => (await auth.authenticate(key))?.account.marketDataPlan === 'pro');
    await store.accounts.setDisabled(accountId, true, Date.now());
    await within(5_000, async () => (await auth.authenticate(key)) === null);
    // Refused keys are remembered for a second; the poll forgets them at once when the account changes.
    await store.accounts.setDisabled(accountId, false, Date.now());
    expect(await within(5_000, async () => (await auth.authenticate(key)) !== null)).toBeLessThan(900);
  } finally {
    auth.stop();
  }
});

it('forgets the keys it is told were revoked at once, whatever the clocks say; the others stay cached', async () => {
  const revoked = await newKey();
  const kept = await newKey();
  // No poll runs: only forgetKeys can make this instance see the revocation before the TTL.
  const auth = createAuthenticator({ accounts: store.accounts, pollMs: 60_000, ttlMs: 60_000 });
  expect(await auth.authenticate(revoked.key, T0)).not.toBeNull();
  expect(await auth.authenticate(kept.key, T0)).not.toBeNull();
  await store.accounts.revokeKey(revoked.id, T0 - 3_600_000); // a revocation time far behind any watermark
  expect(await auth.authenticate(revoked.key, T0 + 1)).not.toBeNull(); // still the cached entry
  const lookups = countLookups();
  try {
    auth.forgetKeys([revoked.id]);
    expect(await auth.authenticate(revoked.key, T0 + 2)).toBeNull();
    expect(await auth.authenticate(kept.key, T0 + 2)).not.toBeNull();
    expect(lookups.count()).toBe(1); // only the forgotten key was read again
  } finally {
    lookups.restore();
  }
});
