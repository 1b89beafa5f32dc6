/**
 * The dashboard's API keys and Usage pages over plain HTTP against the real service: a
 * key is shown once and works on both APIs; names are text, never markup; 20 live keys at most;
 * revocation and rotation are confirmed first and reach the API (at once on the instance that served the page); another account's key
 * cannot be touched; variant B creates no key before the Pro plan. Usage shows the counters behind
 * `X-RateLimit-*` without spending them, and the usage records by day and route, as CSV too, for
 * the signed-in account only.
 */
import type supertest from 'supertest';
import { CLI_ACTOR, issueKey } from '../../src/auth/key-management.js';
import { utcDate } from '../../src/domain/time.js';
import { csrfOf, rowsOf, signedUpAgent, submit, textOf } from '../support/dashboard.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

const UPGRADE_URL = 'https://billing.example.com/prediction-pro';
let t: TestService;

beforeAll(async () => {
  t = await startTestService({ env: { PORTAL_UPGRADE_URL: UPGRADE_URL } });
});
afterAll(async () => {
  await t?.close();
});

const accountOf = async (email: string) => (await t.service.store.users.findByEmail(email))!.accountId;
const keyRows = async (agent: supertest.Agent) => rowsOf((await agent.get('/account/keys')).text, 'API keys', 'key');
/** The key shown once in a page, if any. */
const shownKey = (page: string) => /id="new-api-key"[^>]*value="([^"]+)"/.exec(page)?.[1];

async function createKey(agent: supertest.Agent, name: string, expires = '') {
  const res = await submit(agent, '/account/keys', { action: 'create', name, expires });
  return { res, key: shownKey(res.text) };
}

/** The body rows of the table named `caption`, each as its cells' text. */
function tableCells(page: string, caption: string): string[][] {
  const table = new RegExp(`<caption>${caption}</caption>[\\s\\S]*?<tbody>([\\s\\S]*?)</tbody>`).exec(page);
  if (!table) throw new Error(`no table "${caption}" in the page`);
  return [...table[1]!.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1]!.matchAll(/<t[dh][^>]*>([\s\S]*?)<\/t[dh]>/g)].map((c) => textOf(c[1]!)),
  );
}

describe('API keys', () => {
  it('a new key is shown once, works on both APIs, and is listed by name and prefix from then on', async () => {
    const agent = await signedUpAgent(t.urls.a, 'keys@example.com');
    await t.service.store.accounts.setPlans(await accountOf('keys@example.com'), { predictionPlan: 'pro' }, t.clock.now());
    const { res, key } = await createKey(agent, 'laptop');
    expect(res.status).toBe(201);
    expect(key).toMatch(/^mgw_/);
    expect((await t.a.get('/api/v1/markets?limit=1').set(bearer(key!))).status).toBe(200);
    expect((await t.b.get(`/api/v1/markets?apikey=${key}`)).status).toBe(200);
    await t.service.usage!.flush();

    const listed = await agent.get('/account/keys');
    expect(listed.text).not.toContain(key);
    const [row] = rowsOf(listed.text, 'API keys', 'key');
    expect(row!.cells.slice(0, 2)).toEqual(['laptop', `${key!.slice(0, 10)}…`]);
    expect(row!.cells[3]).toMatch(/UTC$/); // last used: the calls above
    expect(row!.cells[5]).toBe('Active');
    const activity = await t.service.store.activity.list(await accountOf('keys@example.com'));
    expect(activity.find((a) => a.kind === 'key_created')).toMatchObject({ clientAddress: expect.stringMatching(/127\.0\.0\.1/) });
    expect(JSON.stringify(activity)).not.toContain(key);
  });

  it('a key is made in three store calls: the session with its account, the keys, the key with its log entry', async () => {
    const agent = await signedUpAgent(t.urls.a, 'round-trips@example.com');
    const csrf = csrfOf((await agent.get('/account/keys')).text);
    const store = t.service.store as unknown as Record<string, Record<string, unknown>>;
    const calls: string[] = [];
    const spies = ['accounts', 'sessions', 'activity', 'users', 'oneTimeTokens'].flatMap((repository) =>
      Object.entries(store[repository]!)
        .filter(([, value]) => typeof value === 'function')
        .map(([method]) => {
          const original = store[repository]![method] as (...args: unknown[]) => unknown;
          store[repository]![method] = (...args: unknown[]) => {
            calls.push(`${repository}.${method}`);
            return original.apply(store[repository], args);
          };
          return () => {
            store[repository]![method] = original;
          };
        }),
    );
    try {
      const res = await agent.post('/account/keys').type('form').send({ csrf, action: 'create', name: 'counted', seen: '0' });
      expect(res.status).toBe(201);
      expect(shownKey(res.text)).toMatch(/^mgw_/);
      // The page after it lists the new key, though the keys were read before it was made.
      expect(rowsOf(res.text, 'API keys', 'key').map((row) => row.cells[0])).toEqual(['counted']);
    } finally {
      for (const restore of spies) restore();
    }
    // The authenticator's background poll of key and account changes is not the request's.
    const requests = calls.filter((call) => !/changesSince|Changes|revokedSince/.test(call));
    expect(requests).toEqual(['sessions.find', 'accounts.keysOfAccount', 'accounts.addKeyWithin']);
    // The log's entry was written with the key.
    const log = await t.service.store.activity.list(await accountOf('round-trips@example.com'));
    expect(log.map((entry) => entry.kind)).toContain('key_created');
    expect(log.find((entry) => entry.kind === 'key_created')?.detail).toMatch(/"counted" created$/);
  });

  it('a name is text: a key named like markup is escaped everywhere it appears', async () => {
    const agent = await signedUpAgent(t.urls.a, 'markup@example.com');
    const name = '<img src=x onerror=alert(1)>';
    const { res } = await createKey(agent, name);
    expect(res.status).toBe(201);
    for (const page of [res.text, (await agent.get('/account/keys')).text]) {
      expect(page).not.toContain('<img src=x');
      expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
    }
    expect((await keyRows(agent))[0]!.cells[0]).toBe(name);
  });

  it('refuses a 21st live key, an empty name and a past expiry, and keeps the form', async () => {
    const agent = await signedUpAgent(t.urls.a, 'many-keys@example.com');
    for (let i = 1; i <= 20; i++) expect((await createKey(agent, `key ${i}`)).res.status).toBe(201);
    const full = await createKey(agent, 'one too many');
    expect(full.res.status).toBe(400);
    expect(full.key).toBeUndefined();
    expect(full.res.text).toContain('at most 20 live keys');
    expect(full.res.text).toContain('value="one too many"');
    expect((await submit(agent, '/account/keys', { action: 'create', name: '   ' })).status).toBe(400);
    const past = await createKey(agent, 'old', '2020-01-01');
    expect(past.res.status).toBe(400);
    expect(past.res.text).toContain('has passed');
    const impossible = await createKey(agent, 'rolled over', '2099-02-30'); // Date.parse would make it 2 March
    expect(impossible.res.status).toBe(400);
    expect(impossible.res.text).toContain('the expiry must be a date');
    const bidi = await createKey(agent, 'prod\u202egnp.exe');
    expect(bidi.res.status).toBe(400);
    expect(await keyRows(agent)).toHaveLength(20);

    // Revoking one makes room.
    const first = (await keyRows(agent))[0]!;
    expect((await submit(agent, `/account/keys?revoke=${first.id}`, { action: 'revoke', id: first.id }, '/account/keys')).status).toBe(303);
    expect((await createKey(agent, 'room again')).res.status).toBe(201);
  });

  it('an expiry date is kept and shown; the key stops at 00:00 UTC that day', async () => {
    const agent = await signedUpAgent(t.urls.a, 'expiring@example.com');
    const date = utcDate(t.clock.now() + 3 * 86_400_000);
    expect((await createKey(agent, 'temporary', date)).res.status).toBe(201);
    const [row] = await keyRows(agent);
    expect(row!.cells[4]).toBe(`${date} 00:00:00 UTC`);
    const stored = (await t.service.store.accounts.keysOfAccount(await accountOf('expiring@example.com')))[0]!;
    expect(stored.expiresAt).toBe(Date.parse(`${date}T00:00:00Z`));
  });

  it('revocation is confirmed first, then the API refuses the key (at once on this instance)', async () => {
    const agent = await signedUpAgent(t.urls.a, 'revoking@example.com');
    const { key } = await createKey(agent, 'to revoke');
    const [row] = await keyRows(agent);
    expect(row!.html).toContain('aria-label="Revoke to revoke"');
    const confirm = await agent.get(`/account/keys?revoke=${row!.id}`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('>Revoke key</button>');
    expect((await t.a.get('/api/v1/markets?limit=1').set(bearer(key!))).status).toBe(200); // nothing happened yet

    const revoked = await agent
      .post('/account/keys')
      .type('form')
      .send({ csrf: csrfOf(confirm.text), action: 'revoke', id: row!.id });
    expect(revoked.status).toBe(303);
    expect(revoked.headers.location).toBe('/account/keys?done=revoked');
    // This instance applies it before answering; other instances within their 2 s poll (dashboard-instances.test.ts).
    expect((await t.a.get('/api/v1/markets?limit=1').set(bearer(key!))).status).toBe(401);
    expect((await keyRows(agent))[0]!.cells[5]).toBe('Revoked');
    expect((await keyRows(agent))[0]!.html).not.toContain('<button');
  });

  it('rotation gives a new key with the same name, and revokes the old one only when asked', async () => {
    const agent = await signedUpAgent(t.urls.a, 'rotating@example.com');
    const { key: first } = await createKey(agent, 'server');
    const [row] = await keyRows(agent);
    const kept = await submit(agent, `/account/keys?rotate=${row!.id}`, { action: 'rotate', id: row!.id }, '/account/keys');
    expect(kept.status).toBe(201);
    const second = shownKey(kept.text)!;
    expect(second).not.toBe(first);
    // Two live keys named "server": each button's name stays unique.
    const rows = await keyRows(agent);
    expect(rows.map((r) => r.cells[0])).toEqual(['server', 'server']);
    expect(rows[0]!.html).toContain(`aria-label="Revoke server (${rows[0]!.id})"`);

    const replaced = await submit(agent, `/account/keys?rotate=${row!.id}`, { action: 'rotate', id: row!.id, revokeOld: 'yes' }, '/account/keys');
    expect(replaced.status).toBe(201);
    const third = shownKey(replaced.text)!;
    expect((await t.a.get('/api/v1/markets?limit=1').set(bearer(first!))).status).toBe(401);
    for (const live of [second, third]) expect((await t.a.get('/api/v1/markets?limit=1').set(bearer(live))).status).toBe(200);
  });

  it("one account cannot see, revoke or rotate another's key", async () => {
    const owner = await signedUpAgent(t.urls.a, 'owner@example.com');
    const { key } = await createKey(owner, 'mine');
    const [row] = await keyRows(owner);
    const other = await signedUpAgent(t.urls.a, 'intruder@example.com');
    expect(await keyRows(other)).toEqual([]);
    expect((await other.get(`/account/keys?revoke=${row!.id}`)).status).toBe(404);
    expect((await submit(other, '/account/keys', { action: 'revoke', id: row!.id })).status).toBe(404);
    expect((await submit(other, '/account/keys', { action: 'rotate', id: row!.id, revokeOld: 'yes' })).status).toBe(404);
    expect((await t.a.get('/api/v1/markets?limit=1').set(bearer(key!))).status).toBe(200);
    expect((await keyRows(owner))[0]!.cells[5]).toBe('Active');
  });

  it('a form sent again (a reload of the page that showed the key) makes no second key, and says which key it made', async () => {
    const agent = await signedUpAgent(t.urls.a, 'reload@example.com');
    /** The form of `path` as a browser would send it: its hidden fields, and `fields`. */
    const formOf = async (path: string, fields: Record<string, string>) => {
      const page = (await agent.get(path)).text;
      const seen = /name="seen" value="(\d+)"/.exec(page)?.[1];
      expect(seen).toBeDefined();
      return { csrf: csrfOf(page), seen: seen!, ...fields };
    };
    const send = (body: Record<string, string>) => agent.post('/account/keys').type('form').send(body);

    const create = await formOf('/account/keys', { action: 'create', name: 'laptop', expires: '' });
    const first = await send(create);
    expect(first.status).toBe(201);
    const key = shownKey(first.text)!;
    const again = await send(create);
    expect(again.status).toBe(409);
    expect(shownKey(again.text)).toBeUndefined();
    expect(textOf(again.text)).toContain(`This form already made the key "laptop" (${key.slice(0, 10)}…)`);
    expect(await keyRows(agent)).toHaveLength(1);

    // The form shown again makes another key of the same name: only a form sent twice is refused.
    const second = await send(await formOf('/account/keys', { action: 'create', name: 'laptop', expires: '' }));
    expect(second.status).toBe(201);
    expect(await keyRows(agent)).toHaveLength(2);

    const [row] = await keyRows(agent);
    const rotate = await formOf(`/account/keys?rotate=${row!.id}`, { action: 'rotate', id: row!.id, revokeOld: 'yes' });
    expect((await send(rotate)).status).toBe(201);
    const rotatedAgain = await send(rotate);
    expect(rotatedAgain.status).toBe(409);
    expect(shownKey(rotatedAgain.text)).toBeUndefined();
    expect(await keyRows(agent)).toHaveLength(3);

    // A `seen` that is not a count (empty here) is no claim: the key is made, as from a script.
    expect((await send({ ...create, csrf: csrfOf((await agent.get('/account/keys')).text), seen: '' })).status).toBe(201);
    expect(await keyRows(agent)).toHaveLength(4);
  });

  it('a cross-site POST creates nothing', async () => {
    const agent = await signedUpAgent(t.urls.a, 'cross-site@example.com');
    const form = await agent.get('/account/keys');
    const res = await agent
      .post('/account/keys')
      .set('Origin', 'https://evil.example')
      .type('form')
      .send({ csrf: csrfOf(form.text), action: 'create', name: 'planted' });
    expect(res.status).toBe(403);
    expect(await keyRows(agent)).toEqual([]);
  });

  it('on variant B, until the Pro plan is active, the page says how to get it and creates no key', async () => {
    const agent = await signedUpAgent(t.urls.b, 'b-free@example.com');
    const page = await agent.get('/account/keys');
    expect(page.text).toContain('Prediction markets need the Pro plan');
    expect(page.text).toContain(`href="${UPGRADE_URL}"`);
    expect(page.text).not.toContain('Create key');
    const refused = await submit(agent, '/account/keys', { action: 'create', name: 'too early' });
    expect(refused.status).toBe(403);
    expect(await t.service.store.accounts.keysOfAccount(await accountOf('b-free@example.com'))).toEqual([]);
    // A key the account has (made on A) is listed and can be revoked, but not rotated into a new one.
    const account = (await t.service.store.accounts.findAccount(await accountOf('b-free@example.com')))!;
    await issueKey(t.service.store, account, { name: 'made on A' }, t.clock.now(), CLI_ACTOR);
    const [row] = await keyRows(agent);
    expect(row!.html).not.toContain('Rotate');
    expect(row!.html).toContain('aria-label="Revoke made on A"');
    expect((await submit(agent, '/account/keys', { action: 'rotate', id: row!.id, revokeOld: 'yes' })).status).toBe(403);
    expect(await t.service.store.accounts.keysOfAccount(await accountOf('b-free@example.com'))).toHaveLength(1);

    await t.service.store.accounts.setPlans(await accountOf('b-free@example.com'), { predictionPlan: 'pro' }, t.clock.now());
    const { res, key } = await createKey(agent, 'now pro');
    expect(res.status).toBe(201);
    expect(res.text).toContain('aria-label="Rotate now pro"');
    expect((await t.b.get(`/api/v1/markets?apikey=${key}`)).status).toBe(200);
  });
});

describe('Usage', () => {
  it("shows this minute's and today's counts as X-RateLimit-* counts them, spending nothing, and the records by day and route", async () => {
    const agent = await signedUpAgent(t.urls.a, 'usage@example.com');
    await t.service.store.accounts.setPlans(await accountOf('usage@example.com'), { predictionPlan: 'pro' }, t.clock.now());
    const { key } = await createKey(agent, 'counted');
    let remaining: string | undefined;
    for (let i = 0; i < 3; i++) remaining = (await t.a.get('/api/v1/markets?limit=1').set(bearer(key!))).headers['x-ratelimit-remaining'];
    expect(remaining).toBe('7'); // Free: 10 a minute
    expect((await t.b.get('/api/v1/markets').set(bearer(key!))).status).toBe(200);
    await t.service.usage!.flush();

    for (let look = 0; look < 2; look++) {
      // Looking twice shows the same counts: the page spends no quota.
      const page = (await agent.get('/account/usage')).text;
      const [marketData, prediction] = tableCells(page, 'Plans and quotas');
      expect(marketData!.slice(0, 2)).toEqual(['Market data', 'Free']);
      expect(marketData![2]).toMatch(/^3 of 10 \(7 left/);
      expect(marketData![3]).toMatch(/^3 of 1000 \(997 left/);
      expect(prediction!.slice(0, 3)).toEqual(['Prediction markets', 'Pro', expect.stringMatching(/^1 of 60 /)]);
      // The same counts as meters, each saying what resets when.
      expect(page).toContain('<meter min="0" max="10" value="3" aria-label="Market data: This minute, 3 of 10 used"></meter>');
      expect(page).toMatch(/7 left; the count resets at \d\d:\d\d UTC\./);
      expect(prediction![3]).toBe('Unlimited');

      // Today, then the 29 days without requests folded into one row.
      const days = tableCells(page, 'Usage by day');
      expect(days).toEqual([
        [utcDate(t.clock.now()), '4'],
        [`${utcDate(t.clock.now() - 29 * 86_400_000)} to ${utcDate(t.clock.now() - 86_400_000)} (29 days)`, '0'],
      ]);
      expect(tableCells(page, 'Usage by route')).toEqual([
        ['Market data: GET /api/v1/markets', '3'],
        ['Prediction markets: GET /api/v1/markets', '1'],
      ]);
      expect(page).toContain('<svg class="chart" role="img"');
    }
    expect((await t.a.get('/api/v1/markets?limit=1').set(bearer(key!))).headers['x-ratelimit-remaining']).toBe('6');

    // A row dated tomorrow (an instance whose clock runs ahead) is in none of the views of the last 30 days.
    const tomorrow = utcDate(t.clock.now() + 86_400_000);
    const keyId = (await keyRows(agent))[0]!.id;
    const accountId = await accountOf('usage@example.com');
    await t.service.store.usage.add([{ day: tomorrow, accountId, keyId, listener: 'A', route: 'A GET /api/v1/brief', requests: 5, lastAt: t.clock.now() }]);
    expect(tableCells((await agent.get('/account/usage')).text, 'Usage by route')).toHaveLength(2);

    // Every count written, the request just above included (the recorder's own timer may have flushed it already).
    await t.service.usage!.flush();
    const csv = await agent.get('/account/usage.csv');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="usage-\d{4}-\d{2}-\d{2}\.csv"$/);
    const today = utcDate(t.clock.now());
    expect(csv.text.trim().split('\n')).toEqual(['date,route,requests', `${today},A GET /api/v1/markets,4`, `${today},B GET /api/v1/markets,1`]);
  });

  it('another account sees only its own usage, and a signed-out visitor none', async () => {
    const agent = await signedUpAgent(t.urls.a, 'usage-other@example.com');
    const page = (await agent.get('/account/usage')).text;
    expect(tableCells(page, 'Usage by day').every(([, n]) => n === '0')).toBe(true);
    expect(page).toContain('No requests in the last 30 days.');
    expect((await agent.get('/account/usage.csv')).text.trim()).toBe('date,route,requests');
    const stranger = await t.a.get('/account/usage.csv');
    expect(stranger.status).toBe(303);
    expect(stranger.headers.location).toBe('/account/sign-in');
  });
});
