/**
 * Variant A contract (api-spec.md + D3..D7), table-driven from the route table where it can be:
 * statuses, envelopes, parameter rules, rate-limit headers and 429, ordering, pagination.
 */
import { expectErrorEnvelope, ISO_MS } from '../support/envelopes.js';
import { judge, recordAnswers, sampleEveryPath } from '../support/openapi-judge.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { CREATE_PRICE_ALERT, graphqlPost, priceAlertAbove } from '../support/graphql-call.js';

let t: TestService;
/** Every answer of this suite, judged against the served OpenAPI document by the last test. */
let answers: ReturnType<typeof recordAnswers>;
let pro: string;
let free: string;
let enterprise: string;

beforeAll(async () => {
  t = await startTestService();
  answers = recordAnswers(t.a);
  pro = (await t.createKey('pro')).key;
  free = (await t.createKey('free')).key;
  enterprise = (await t.createKey('enterprise')).key;
});
afterAll(() => t?.close());

/** A fresh key per test that counts quota, so tests do not share windows. */
const freshKey = async (plan: 'free' | 'pro' | 'enterprise' = 'pro') => (await t.createKey(plan)).key;

/** A request that passes the parameter rules of each route. */
const validQuery: Record<string, string> = {
  '/markets': '',
  '/brief': '?symbols=BTC/USD',
  '/alerts': '',
};

/** The documented paths and their query parameters, as the contract lists them (not read from the code under test). */
const DOCUMENTED: Record<string, string[]> = {
  '/markets': ['type', 'status', 'limit', 'offset'],
  '/brief': ['symbols', 'interval', 'limit'],
  '/alerts': ['status', 'symbol'],
};

/** Values each parameter refuses (400), as the contract states its rules. */
const INVALID: Record<string, string[]> = {
  type: ['', 'nope', 'CRYPTO'],
  status: ['', 'nope'],
  limit: ['', 'nope', '0', '-1', '1.5', '99999999'],
  offset: ['', 'nope', '-1', '1.5'],
  interval: ['', '2h', '1H'],
};

describe.each(Object.keys(DOCUMENTED).map((path) => [path]))('GET /api/v1%s', (path) => {
  const url = `/api/v1${path}${validQuery[path]}`;

  it('401 without a key, with an unknown key, a malformed header, or ?apikey= (variant A ignores it)', async () => {
    for (const headers of [{}, bearer(`mgw_${'x'.repeat(40)}`), { Authorization: 'Basic abc' }, { Authorization: `Bearer ${pro} extra` }]) {
      const res = await t.a.get(url).set(headers);
      expect(res.status).toBe(401);
      expectErrorEnvelope(res.body, 401, 'unauthorized');
      expect(res.headers['x-ratelimit-remaining']).toBeUndefined();
    }
    const viaQuery = await t.a.get(`${url}${url.includes('?') ? '&' : '?'}apikey=${pro}`);
    expect(viaQuery.status).toBe(401);
  });

  it('405 with Allow for other methods, after authentication', async () => {
    const res = await t.a.post(url).set(bearer(pro));
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expectErrorEnvelope(res.body, 405, 'method_not_allowed');
    expect((await t.a.delete(url)).status).toBe(401); // no key: 401 comes first
  });

  it('HEAD answers like GET without a body', async () => {
    const res = await t.a.head(url).set(bearer(pro));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
  });

  it('200 in the success envelope for an Enterprise key, without rate-limit headers (unlimited)', async () => {
    const res = await t.a.get(url).set(bearer(enterprise));
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body).toHaveProperty('data');
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    expect(res.headers['x-ratelimit-remaining']).toBeUndefined();
  });

  describe.each(DOCUMENTED[path]!.map((name) => [name]))('parameter %s', (name) => {
    const sep = url.includes('?') ? '&' : '?';
    const sample =
      name === 'symbols' || name === 'symbol' ? 'BTC/USD' : name === 'interval' ? '1h' : name === 'status' ? 'active' : name === 'type' ? 'crypto' : '5';
    it('400 when given twice or in nested form', async () => {
      const base = url.replace(new RegExp(`[?&]${name}=[^&]*`), '');
      const joiner = base.includes('?') ? '&' : '?';
      for (const q of [`${name}=${sample}&${name}=${sample}`, `${name}[x]=${sample}`, `${name}[]=${sample}`]) {
        const res = await t.a.get(`${base}${joiner}${q}`).set(bearer(enterprise));
        expect(res.status).toBe(400);
        expectErrorEnvelope(res.body, 400, 'bad_request');
        expect(res.body.error.message).toContain(name);
      }
    });
    if (INVALID[name]) {
      it('400 naming the parameter for an invalid value', async () => {
        for (const bad of INVALID[name]!) {
          const res = await t.a.get(`${url}${sep}${name}=${encodeURIComponent(bad)}`).set(bearer(enterprise));
          expect(res.status).toBe(400);
          expectErrorEnvelope(res.body, 400, 'bad_request');
          expect(res.body.error.message).toMatch(new RegExp(`^${name} `));
        }
      });
    }
  });

  it('ignores unknown parameters', async () => {
    const sep = url.includes('?') ? '&' : '?';
    const res = await t.a.get(`${url}${sep}foo=bar&foo=baz&x[y]=1`).set(bearer(enterprise));
    expect(res.status).toBe(200);
  });
});

describe('routing and plans', () => {
  it('unknown path under /api/v1: 401 without a key, 404 with one', async () => {
    expect((await t.a.get('/api/v1/nope')).status).toBe(401);
    const res = await t.a.get('/api/v1/nope').set(bearer(pro));
    expect(res.status).toBe(404);
    expectErrorEnvelope(res.body, 404, 'not_found');
  });

  it('Free has /markets only: 403 on /brief and /alerts, consuming nothing', async () => {
    const key = await freshKey('free');
    for (const url of ['/api/v1/brief?symbols=BTC/USD', '/api/v1/alerts']) {
      const res = await t.a.get(url).set(bearer(key));
      expect(res.status).toBe(403);
      expectErrorEnvelope(res.body, 403, 'forbidden');
      expect(res.body.error.message).toMatch(/pro/);
    }
    const ok = await t.a.get('/api/v1/markets').set(bearer(key));
    expect(ok.status).toBe(200);
    expect(ok.headers['x-ratelimit-remaining']).toBe('9');
  });

  it('the spec sample works unchanged: /markets for the free plan', async () => {
    const res = await t.a.get('/api/v1/markets').set(bearer(free));
    expect(res.status).toBe(200);
  });
});

describe('quotas and rate-limit headers (D4)', () => {
  it('free: exactly 10 per minute, headers count down, the 11th is 429 with Retry-After; next minute resets', async () => {
    const key = await freshKey('free');
    const remaining: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await t.a.get('/api/v1/markets').set(bearer(key));
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('10');
      remaining.push(String(res.headers['x-ratelimit-remaining']));
      const reset = Number(res.headers['x-ratelimit-reset']);
      expect(reset).toBe(Math.ceil((Math.floor(t.clock.now() / 60_000) + 1) * 60));
    }
    expect(remaining).toEqual(['9', '8', '7', '6', '5', '4', '3', '2', '1', '0']);
    const refused = await t.a.get('/api/v1/markets').set(bearer(key));
    expect(refused.status).toBe(429);
    expectErrorEnvelope(refused.body, 429, 'rate_limit_exceeded');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);

    t.clock.advance(60_000);
    const next = await t.a.get('/api/v1/markets').set(bearer(key));
    expect(next.status).toBe(200);
    expect(next.headers['x-ratelimit-remaining']).toBe('9');
  });

  it('400 consumes a unit; 401, 403, 404, 405 and 429 consume nothing', async () => {
    const { key } = await t.createKey('free');
    await t.a.get('/api/v1/brief?symbols=BTC/USD').set(bearer(key)); // 403
    await t.a.get('/api/v1/nope').set(bearer(key)); // 404
    await t.a.post('/api/v1/markets').set(bearer(key)); // 405
    const bad = await t.a.get('/api/v1/markets?type=bonds').set(bearer(key)); // 400
    expect(bad.status).toBe(400);
    expect(bad.headers['x-ratelimit-remaining']).toBe('9');
    const ok = await t.a.get('/api/v1/markets').set(bearer(key));
    expect(ok.headers['x-ratelimit-remaining']).toBe('8');
  });

  it('pro: limit 60 per minute; the minute binds while the day has more left', async () => {
    const key = await freshKey('pro');
    const res = await t.a.get('/api/v1/markets').set(bearer(key));
    expect(res.headers['x-ratelimit-limit']).toBe('60');
    expect(res.headers['x-ratelimit-remaining']).toBe('59');
  });
});

describe('GET /api/v1/markets', () => {
  it('lists markets ordered by symbol with the documented fields; total counts all', async () => {
    const res = await t.a.get('/api/v1/markets?limit=500').set(bearer(enterprise));
    const { data, total } = res.body;
    expect(total).toBeGreaterThanOrEqual(30);
    expect(data).toHaveLength(total);
    const symbols = data.map((m: { symbol: string }) => m.symbol);
    expect(symbols).toEqual([...symbols].sort());
    for (const m of data) {
      expect(Object.keys(m).sort()).toEqual(['change_24h', 'name', 'price', 'status', 'symbol', 'type']);
      expect(m.symbol).toMatch(/^[A-Z0-9.]+\/[A-Z]+$/);
      expect(['active', 'inactive']).toContain(m.status);
      expect(['crypto', 'forex', 'stocks']).toContain(m.type);
      if (m.status === 'active') {
        expect(typeof m.price).toBe('number');
        expect(typeof m.change_24h).toBe('number');
      }
    }
    for (const type of ['crypto', 'forex', 'stocks']) expect(data.some((m: { type: string }) => m.type === type)).toBe(true);
    expect(data.some((m: { status: string }) => m.status === 'inactive')).toBe(true);
  });

  it('filters by type and status, and total counts the matches', async () => {
    const all = (await t.a.get('/api/v1/markets?limit=500').set(bearer(enterprise))).body.data as { type: string; status: string }[];
    for (const [q, pred] of [
      ['type=forex', (m: { type: string }) => m.type === 'forex'],
      ['status=inactive', (m: { status: string }) => m.status === 'inactive'],
      ['type=crypto&status=active', (m: { type: string; status: string }) => m.type === 'crypto' && m.status === 'active'],
    ] as const) {
      const res = await t.a.get(`/api/v1/markets?${q}`).set(bearer(enterprise));
      expect(res.body.total).toBe(all.filter(pred as never).length);
      expect(res.body.data.every(pred as never)).toBe(true);
    }
  });

  it('paginates with limit and offset', async () => {
    const all = (await t.a.get('/api/v1/markets?limit=500').set(bearer(enterprise))).body;
    const page = (await t.a.get('/api/v1/markets?limit=5&offset=3').set(bearer(enterprise))).body;
    expect(page.total).toBe(all.total);
    expect(page.data).toEqual(all.data.slice(3, 8));
    const beyond = (await t.a.get(`/api/v1/markets?offset=${all.total + 10}`).set(bearer(enterprise))).body;
    expect(beyond).toEqual({ success: true, data: [], total: all.total });
    const defaults = (await t.a.get('/api/v1/markets').set(bearer(enterprise))).body;
    expect(defaults.data.length).toBe(Math.min(100, all.total));
  });
});

describe('GET /api/v1/brief', () => {
  it('answers each symbol upper case, deduplicated in order, with trend, confidence and indicators; default interval 1h', async () => {
    const res = await t.a.get('/api/v1/brief?symbols=eth/usd, BTC/USD,,eth/USD').set(bearer(pro));
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.interval).toBe('1h');
    expect(res.body.data.markets.map((m: { symbol: string }) => m.symbol)).toEqual(['ETH/USD', 'BTC/USD']);
    for (const m of res.body.data.markets) {
      expect(['bullish', 'bearish', 'neutral']).toContain(m.trend);
      expect(m.confidence).toBeGreaterThanOrEqual(0);
      expect(m.confidence).toBeLessThanOrEqual(1);
      expect(typeof m.price).toBe('number');
      expect(typeof m.change).toBe('number');
      expect(typeof m.volume).toBe('number');
      expect(Array.isArray(m.signals)).toBe(true);
      // Backfill gives every interval enough history for every indicator.
      for (const value of Object.values(m.indicators)) expect(typeof value).toBe('number');
    }
  });

  it.each(['5m', '15m', '1h', '4h', '1d'])('interval %s has full indicators', async (interval) => {
    const res = await t.a.get(`/api/v1/brief?symbols=AAPL/USD,EUR/USD&interval=${interval}`).set(bearer(enterprise));
    expect(res.status).toBe(200);
    expect(res.body.data.interval).toBe(interval);
    expect(res.body.data.markets).toHaveLength(2);
    for (const m of res.body.data.markets) expect(Object.values(m.indicators).every((v) => typeof v === 'number')).toBe(true);
  });

  it('limit caps how many of the requested symbols are answered (the first ones)', async () => {
    const res = await t.a.get('/api/v1/brief?symbols=BTC/USD,ETH/USD,SOL/USD&limit=2').set(bearer(pro));
    expect(res.body.data.markets.map((m: { symbol: string }) => m.symbol)).toEqual(['BTC/USD', 'ETH/USD']);
  });

  it('404 naming an unknown symbol; 400 without symbols or with more than 100', async () => {
    const unknown = await t.a.get('/api/v1/brief?symbols=BTC/USD,NOPE/USD').set(bearer(pro));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('NOPE/USD');
    for (const q of ['', '?symbols=', '?symbols=,,', `?symbols=${Array.from({ length: 101 }, (_, i) => `S${i}/USD`).join(',')}`]) {
      const res = await t.a.get(`/api/v1/brief${q}`).set(bearer(pro));
      expect(res.status).toBe(400);
      expectErrorEnvelope(res.body, 400, 'bad_request');
    }
    // Over 4 000 characters: said so, not "symbols is required".
    const long = await t.a.get(`/api/v1/brief?symbols=${'BTC/USD,'.repeat(501)}`).set(bearer(pro));
    expect(long.status).toBe(400);
    expect(long.body.error.message).toBe('symbols is too long: at most 4000 characters, got 4008');
  });
});

describe('GET /api/v1/alerts', () => {
  it("lists the caller's alerts newest first, filters by status and symbol, ISO timestamps", async () => {
    const owner = await t.createKey('pro');
    const other = await t.createKey('pro');
    const account = (await t.service.store.accounts.findKeyById(owner.keyId))!.account;
    const make = (symbol: string, threshold: number) =>
      t.service.store.priceAlerts.create({ accountId: account.id, symbol, kind: 'price_above', threshold, signal: null, expiresAt: null, now: t.clock.now() });
    const first = await make('BTC/USD', 1e9);
    const second = await make('ETH/USD', 1e9);
    const third = await make('BTC/USD', 2e9);
    await t.service.store.priceAlerts.transition(first.id, 'triggered', t.clock.now());

    const res = await t.a.get('/api/v1/alerts').set(bearer(owner.key));
    expect(res.body.total).toBe(3);
    expect(res.body.data.map((a: { id: string }) => a.id)).toEqual([third.id, second.id, first.id]);
    const triggered = res.body.data[2];
    expect(triggered).toMatchObject({ status: 'triggered', symbol: 'BTC/USD', kind: 'price_above', threshold: 1e9, signal: null, expires_at: null });
    expect(triggered.triggered_at).toMatch(ISO_MS);
    expect(triggered.created_at).toMatch(ISO_MS);
    expect(res.body.data[0].triggered_at).toBeNull();

    const bySymbol = await t.a.get('/api/v1/alerts?symbol=btc/usd').set(bearer(owner.key));
    expect(bySymbol.body.data.map((a: { id: string }) => a.id)).toEqual([third.id, first.id]);
    const active = await t.a.get('/api/v1/alerts?status=active').set(bearer(owner.key));
    expect(active.body).toMatchObject({ total: 2 });

    const foreign = await t.a.get('/api/v1/alerts').set(bearer(other.key));
    expect(foreign.body).toEqual({ success: true, data: [], total: 0 });
  });
});

describe('hostile input never yields a 5xx, HTML or a stack trace', () => {
  it.each([
    '/api/v1/markets?type=%E0%A4%A',
    '/api/v1/markets?limit=1e3',
    '/api/v1/markets?limit=%00',
    '/api/v1/brief?symbols=%F0%9F%92%A9',
    '/api/v1/brief?symbols[]=BTC/USD',
    '/api/v1/markets/../../etc/passwd',
    '/api/v1/%',
    '/nothing-here',
    `/api/v1/brief?symbols=${'A'.repeat(5000)}`,
  ])('%s', async (url) => {
    const res = await t.a.get(url).set(bearer(pro));
    expect(res.status).toBeGreaterThanOrEqual(200);
    expect(res.status).toBeLessThan(500);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(JSON.stringify(res.body)).not.toMatch(/\n\s+at |node_modules|\.ts:\d/);
  });

  it('malformed JSON to /graphql is a JSON 400', async () => {
    const res = await t.a.post('/graphql').set(bearer(pro)).set('Content-Type', 'application/json').send('{"query": ');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/json/);
  });
});

describe('market status (D7)', () => {
  it('a market with no quote newer than its staleness bound is inactive, and active again on a new quote', async () => {
    const listActive = async () =>
      (await t.a.get('/api/v1/markets?status=active&limit=500').set(bearer(enterprise))).body.data.map((m: { symbol: string }) => m.symbol);
    const before = await listActive();
    expect(before).toContain('BTC/USD');
    t.clock.advance(60 * 60_000); // beyond every demo staleness bound
    expect(await listActive()).toEqual([]);
    const quote = t.service.markets.quote('BTC/USD')!;
    t.service.markets.applyQuotes([{ ...quote, observedAt: t.clock.now() }]);
    expect(await listActive()).toEqual(['BTC/USD']);
  });
});

describe('caching (ETag, 304, Cache-Control)', () => {
  it('shared data carries an ETag and answers If-None-Match with 304', async () => {
    const markets = await t.a.get('/api/v1/markets?type=crypto').set(bearer(enterprise));
    expect(markets.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(markets.headers['cache-control']).toBe('private, max-age=2');
    const notModified = await t.a.get('/api/v1/markets?type=crypto').set(bearer(enterprise)).set('If-None-Match', markets.headers.etag!);
    expect(notModified.status).toBe(304);
    const other = await t.a.get('/api/v1/markets?type=forex').set(bearer(enterprise)).set('If-None-Match', markets.headers.etag!);
    expect(other.status).toBe(200);
  });

  it("an account's alerts carry their own ETag, changed by every change to them, whoever makes it", async () => {
    const owner = await t.createKey('pro');
    const other = await t.createKey('pro');
    const get = (key: string, etag?: string) => {
      const request = t.a.get('/api/v1/alerts').set(bearer(key));
      return etag ? request.set('If-None-Match', etag) : request;
    };
    const empty = await get(owner.key);
    expect(empty.body.data).toEqual([]);
    expect(empty.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(empty.headers['cache-control']).toBe('private, max-age=0');
    expect((await get(owner.key, empty.headers.etag)).status).toBe(304);

    // A change by another process (the CLI writes to the store directly): seen within a quarter second.
    const alert = await t.service.store.priceAlerts.create({
      accountId: owner.accountId,
      symbol: 'BTC/USD',
      kind: 'price_above',
      threshold: 1e9,
      signal: null,
      expiresAt: null,
      now: t.clock.now(),
    });
    const written = Date.now();
    let listed = await get(owner.key, empty.headers.etag);
    while (listed.status === 304) {
      expect(Date.now() - written).toBeLessThan(2_000);
      await new Promise((r) => setTimeout(r, 25));
      listed = await get(owner.key, empty.headers.etag);
    }
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((a: { id: string }) => a.id)).toEqual([alert.id]);
    // Another account's answer is its own, whatever ETag it sends.
    const theirs = await get(other.key, listed.headers.etag);
    expect(theirs.status).toBe(200);
    expect(theirs.body.data).toEqual([]);

    // A change through /graphql on this instance: at once.
    const cancel = await t.a
      .post('/graphql')
      .set(bearer(owner.key))
      .send({ query: `mutation { cancelPriceAlert(id: "${alert.id}") { id } }` });
    expect(cancel.body.errors).toBeUndefined();
    const afterCancel = await get(owner.key, listed.headers.etag);
    expect(afterCancel.status).toBe(200);
    expect(afterCancel.body.data).toEqual([]);

    // Created through /graphql, then moved by the evaluator: each seen at once.
    const quote = t.service.markets.quote('BTC/USD')!;
    const created = await graphqlPost(t.a, owner.key, CREATE_PRICE_ALERT, priceAlertAbove(quote.price / 2));
    expect(created.body.errors).toBeUndefined();
    const active = await get(owner.key);
    expect(active.body.data[0].status).toBe('active');
    await t.service.alerts.evaluate([{ ...quote, observedAt: t.clock.now() }], t.clock.now());
    const moved = await get(owner.key, active.headers.etag);
    expect(moved.status).toBe(200);
    expect(moved.body.data[0].status).toBe('triggered');
  });

  it('a new quote changes the answer at once, cache or not', async () => {
    const before = await t.a.get('/api/v1/markets?limit=500').set(bearer(enterprise));
    const btc = before.body.data.find((m: { symbol: string }) => m.symbol === 'BTC/USD');
    t.service.markets.applyQuotes([{ symbol: 'BTC/USD', price: btc.price * 2, change24h: 1, volume24h: 1, observedAt: t.clock.now() }]);
    const after = await t.a.get('/api/v1/markets?limit=500').set(bearer(enterprise));
    expect(after.body.data.find((m: { symbol: string }) => m.symbol === 'BTC/USD').price).toBeCloseTo(btc.price * 2, 6);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });
});

// Last, so it sees every answer above: an outside judge (the OpenAPI 3.1 schema, Ajv) reads them
// against the document this listener serves.
it('every answer of this suite conforms to the OpenAPI document the listener serves', async () => {
  // Its own answers too: run alone, it still judges every documented path (with a key, and without).
  const own = await sampleEveryPath(t.a, pro, validQuery);
  const { problems, judged } = await judge(t.a, answers);
  expect(problems).toEqual([]);
  expect(judged).toBeGreaterThanOrEqual(own);
});
