/**
 * The edge's admission (src/edge/edge.ts) with a stand-in authenticator and quota, for what a real
 * store rarely shows: every kind of key refusal and its message, the 401's hints, a 403's way to
 * the plan, a quota store that is down (503, never unmetered), a request that reads two products
 * (one unit each, the tightest window's headers), and what the metrics and usage hooks are told.
 */
import type { Authenticator, KeyRefusal, Principal } from '../../../src/auth/authenticator.js';
import type { Account, Product } from '../../../src/domain/account.js';
import type { PlanRequirements } from '../../../src/domain/plans.js';
import { ApiError } from '../../../src/domain/refusal.js';
import { createEdge, type Edge, type Entrance, type Outcome, type Presented } from '../../../src/edge/edge.js';
import type { QuotaDecision, QuotaService } from '../../../src/quota/index.js';
import { QuotaUnavailableError } from '../../../src/quota/redis-quota.js';

const NOW = Date.UTC(2026, 10, 24, 12, 0, 30);
const ACCOUNT: Account = { id: 'acct_1', name: 'one', marketDataPlan: 'pro', predictionPlan: 'pro' };
const PRINCIPAL: Principal = { keyId: 'key_1', account: ACCOUNT, anyOperation: false };
const KEY = `mgw_${'k'.repeat(40)}`;

/** An authenticator that answers every key with `answer`, and says which keys it was asked. */
function authenticatorAnswering(answer: Principal | KeyRefusal | Error) {
  const asked: string[] = [];
  const authenticator = {
    check: async (key: string) => {
      asked.push(key);
      if (answer instanceof Error) throw answer;
      return answer;
    },
  } as unknown as Authenticator;
  return { authenticator, asked };
}

const allowed = (limit: number, remaining: number, reset: number): QuotaDecision => ({
  allowed: true,
  headers: { 'X-RateLimit-Limit': String(limit), 'X-RateLimit-Remaining': String(remaining), 'X-RateLimit-Reset': String(reset) },
});

/** A quota that answers per product, and records what it was asked to spend. */
function quotaAnswering(answers: Partial<Record<Product, QuotaDecision | Error>>) {
  const spent: string[] = [];
  const quota: QuotaService = {
    consume: async (account, product, now) => {
      spent.push(`${account.id} ${product} ${now}`);
      const answer = answers[product] ?? { allowed: true, headers: {} };
      if (answer instanceof Error) throw answer;
      return answer;
    },
    peek: async () => [],
  };
  return { quota, spent };
}

interface Seen {
  degraded: Error[];
  refused: Product[];
  metered: string[];
  classified: unknown[];
}

function edgeWith(answer: Principal | KeyRefusal | Error, quotaAnswers: Partial<Record<Product, QuotaDecision | Error>> = {}, upgradeUrl?: string) {
  const { authenticator, asked } = authenticatorAnswering(answer);
  const { quota, spent } = quotaAnswering(quotaAnswers);
  const seen: Seen = { degraded: [], refused: [], metered: [], classified: [] };
  const edge = createEdge({
    variant: 'A',
    authenticator,
    quota,
    now: () => NOW,
    classify: (where, error) => {
      seen.classified.push(error);
      if (error instanceof ApiError) return error;
      return new ApiError(500, `${where}: internal error`);
    },
    onDegraded: (error) => seen.degraded.push(error),
    onRefused: (product) => seen.refused.push(product),
    onMetered: (principal, usageName) => seen.metered.push(`${principal.keyId} ${usageName}`),
    ...(upgradeUrl ? { upgradeUrl } : {}),
  });
  return { edge, asked, spent, seen };
}

/** A transport's entrance and the key a request presented, in one. */
type TestRequest = Presented & Entrance<void, string, string>;

/** Admits `req` through a door of `edge` made for it. */
const admit = (edge: Edge, req: TestRequest) => edge.door(req).admit(req, undefined);

function request(key: string | undefined, requirements: PlanRequirements = { marketData: 'FREE' }, overrides: Partial<TestRequest> = {}) {
  const ran: string[] = [];
  const req: TestRequest = {
    transport: 'rest',
    key,
    find: (_input, caller) => {
      ran.push(`route ${caller?.keyId ?? 'none'}`);
      return 'target';
    },
    access: () => ({ requirements, what: 'GET /api/v1/quotes', usageName: 'A GET /api/v1/quotes' }),
    parameters: () => {
      ran.push('parameters');
      return 'params';
    },
    ...overrides,
  };
  return { req, ran };
}

const errorOf = (outcome: Outcome<unknown, unknown>): ApiError => {
  if (outcome.admitted) throw new Error('admitted');
  return outcome.error;
};

describe('step 1, the key', () => {
  it.each([
    [{ refused: 'revoked' } as KeyRefusal, 'this API key was revoked: use another key of the account, or create one in the account dashboard (/account)'],
    [
      { refused: 'expired', expiresAt: Date.UTC(2026, 10, 1, 8, 30) } as KeyRefusal,
      'this API key expired at 2026-11-01T08:30:00.000Z: create or rotate a key in the account dashboard (/account)',
    ],
    [{ refused: 'disabled' } as KeyRefusal, "this API key's account is disabled: ask the operator of this gateway to enable it"],
    [{ refused: 'unknown' } as KeyRefusal, 'unknown API key: check that it was copied whole, or create one in the account dashboard (/account)'],
    [{ refused: 'malformed' } as KeyRefusal, 'malformed API key: a key is "mgw_" and 32 or more letters and digits, sent as "Authorization: Bearer <key>"'],
  ])('a %o key is a 401 that says so, with the invalid_token challenge, before anything else runs', async (refusal, message) => {
    const { edge, spent, seen } = edgeWith(refusal);
    const { req, ran } = request(KEY);
    const outcome = await admit(edge, req);
    expect(errorOf(outcome)).toMatchObject({ status: 401, message });
    expect(outcome.headers).toEqual({
      'WWW-Authenticate': `Bearer realm="market-gateway", error="invalid_token", error_description="${refusal.refused} API key"`,
    });
    expect(ran).toEqual([]);
    expect(spent).toEqual([]);
    expect(seen.metered).toEqual([]);
  });

  it('an expired key without its time says the epoch rather than failing', async () => {
    const { edge } = edgeWith({ refused: 'expired' });
    expect(errorOf(await admit(edge, request(KEY).req)).message).toMatch(/^this API key expired at 1970-01-01T00:00:00.000Z:/);
  });

  it('a missing key: the 401 names the header, ?apikey= only where it is read, and where the request put one instead', async () => {
    const { edge, asked } = edgeWith(PRINCIPAL);
    const plain = await admit(edge, request(undefined).req);
    expect(errorOf(plain).message).toBe('an API key is required: send it as "Authorization: Bearer <key>"; create one in the account dashboard (/account)');
    expect(plain.headers).toEqual({ 'WWW-Authenticate': 'Bearer realm="market-gateway"' });
    const misplaced = await admit(edge, request(undefined, {}, { keyInQuery: true, misplacedKey: 'the X-API-Key header is not read' }).req);
    expect(errorOf(misplaced).message).toBe(
      'an API key is required: send it as "Authorization: Bearer <key>" or ?apikey=<key> (the X-API-Key header is not read); create one in the account dashboard (/account)',
    );
    expect(asked).toEqual([]); // no key, nothing to check
  });

  it('the key is checked as presented, and its principal is what the route sees', async () => {
    const { edge, asked } = edgeWith(PRINCIPAL);
    const { req, ran } = request(KEY);
    expect(await admit(edge, req)).toMatchObject({ admitted: true, principal: PRINCIPAL, target: 'target', params: 'params' });
    expect(asked).toEqual([KEY]);
    expect(ran).toEqual(['route key_1', 'parameters']);
  });

  it('an empty key (a malformed Authorization header) is checked, not taken for none', async () => {
    const { edge, asked } = edgeWith({ refused: 'malformed' });
    const { req, ran } = request('', {}, { mayBeOpen: true });
    expect(errorOf(await admit(edge, req)).status).toBe(401);
    expect(asked).toEqual(['']);
    expect(ran).toEqual([]);
  });

  it('where a target may be open, no key is judged once the target is known: open passes, spending nothing', async () => {
    const { edge, spent, seen } = edgeWith(PRINCIPAL);
    const open = request(
      undefined,
      {},
      { mayBeOpen: true, access: () => ({ requirements: {}, what: 'introspection', usageName: 'IntrospectionQuery', open: true }) },
    );
    expect(await admit(edge, open.req)).toMatchObject({ admitted: true, principal: null, headers: {}, params: 'params' });
    expect(open.ran).toEqual(['route none', 'parameters']);
    const closed = request(undefined, {}, { mayBeOpen: true });
    expect(errorOf(await admit(edge, closed.req))).toMatchObject({ status: 401 });
    expect(closed.ran).toEqual(['route none']);
    // An open target is not open to a refused key.
    const refusedKey = edgeWith({ refused: 'revoked' });
    const openAgain = request(
      KEY,
      {},
      { mayBeOpen: true, access: () => ({ requirements: {}, what: 'introspection', usageName: 'IntrospectionQuery', open: true }) },
    );
    expect(errorOf(await admit(refusedKey.edge, openAgain.req)).status).toBe(401);
    expect(spent).toEqual([]);
    expect(seen.metered).toEqual([]);
  });

  it('an open target with a key is metered like any other', async () => {
    const { edge, spent, seen } = edgeWith(PRINCIPAL, { marketData: allowed(60, 59, 1) });
    const open = request(KEY, { marketData: 'FREE' }, { access: () => ({ requirements: { marketData: 'FREE' }, what: 'x', usageName: 'Open', open: true }) });
    expect(await admit(edge, open.req)).toMatchObject({ admitted: true, headers: { 'X-RateLimit-Remaining': '59' } });
    expect(spent).toEqual([`acct_1 marketData ${NOW}`]);
    expect(seen.metered).toEqual(['key_1 Open']);
  });

  it("an authenticator's failure (the store) is classified, not a 401", async () => {
    const failure = new Error('connect ECONNREFUSED');
    const { edge, seen } = edgeWith(failure);
    expect(errorOf(await admit(edge, request(KEY).req))).toMatchObject({ status: 500, message: 'rest: internal error' });
    expect(seen.classified).toEqual([failure]);
  });
});

describe('steps 2 and 3, the route and the plan', () => {
  it("a route's refusal is its own answer, spending nothing", async () => {
    const { edge, spent } = edgeWith(PRINCIPAL);
    const noRoute = new ApiError(405, 'method not allowed', { Allow: 'GET' });
    const outcome = await admit(edge, request(KEY, {}, { find: () => noRoute }).req);
    expect(errorOf(outcome)).toBe(noRoute);
    expect(outcome.headers).toEqual({ Allow: 'GET' });
    expect(spent).toEqual([]);
  });

  it('a plan below the requirement is a 403 that says where to get the plan, spending nothing', async () => {
    const free: Principal = { ...PRINCIPAL, account: { ...ACCOUNT, marketDataPlan: 'free' } };
    const withUrl = edgeWith(free, {}, 'https://example.com/upgrade');
    const outcome = await admit(withUrl.edge, request(KEY, { marketData: 'PRO' }).req);
    expect(errorOf(outcome)).toMatchObject({
      status: 403,
      message: "GET /api/v1/quotes needs the pro market-data plan or higher; this key's market-data plan is free: get it at https://example.com/upgrade",
    });
    expect(withUrl.spent).toEqual([]);
    expect(withUrl.seen.metered).toEqual([]);
    const withoutUrl = edgeWith(free);
    expect(errorOf(await admit(withoutUrl.edge, request(KEY, { marketData: 'PRO' }).req)).message).toMatch(
      /: ask the operator of this gateway to change the account's plan$/,
    );
  });
});

describe('step 4, the quota', () => {
  it('one unit per product read, at the edge clock; the headers of the window with the fewest left', async () => {
    const { edge, spent, seen } = edgeWith(PRINCIPAL, { marketData: allowed(60, 40, 100), prediction: allowed(60, 7, 200) });
    const outcome = await admit(edge, request(KEY, { marketData: 'FREE', prediction: 'PRO' }).req);
    expect(outcome).toMatchObject({ admitted: true, headers: { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '7', 'X-RateLimit-Reset': '200' } });
    expect(spent).toEqual([`acct_1 marketData ${NOW}`, `acct_1 prediction ${NOW}`]);
    expect(seen.metered).toEqual(['key_1 A GET /api/v1/quotes']); // once per request, not per product
    const reversed = edgeWith(PRINCIPAL, { marketData: allowed(10, 3, 100), prediction: allowed(60, 50, 200) });
    expect((await admit(reversed.edge, request(KEY, { marketData: 'FREE', prediction: 'PRO' }).req)).headers['X-RateLimit-Remaining']).toBe('3');
  });

  it('an unlimited product (no headers) never hides the limited one, on either side', async () => {
    for (const [first, second] of [
      [{ allowed: true, headers: {} }, allowed(60, 12, 100)],
      [allowed(60, 12, 100), { allowed: true, headers: {} }],
    ] as const) {
      const { edge } = edgeWith(PRINCIPAL, { marketData: first, prediction: second });
      expect((await admit(edge, request(KEY, { marketData: 'FREE', prediction: 'PRO' }).req)).headers).toEqual({
        'X-RateLimit-Limit': '60',
        'X-RateLimit-Remaining': '12',
        'X-RateLimit-Reset': '100',
      });
    }
  });

  it('a spent window is a 429 with its headers and Retry-After, counted by product; the parameters are never read', async () => {
    const refusal: QuotaDecision = {
      allowed: false,
      headers: { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '200', 'Retry-After': '42' },
    };
    const { edge, seen } = edgeWith(PRINCIPAL, { prediction: refusal });
    const { req, ran } = request(KEY, { marketData: 'FREE', prediction: 'PRO' });
    const outcome = await admit(edge, req);
    expect(errorOf(outcome)).toMatchObject({ status: 429, message: 'rate limit exceeded: retry after 42 s' });
    expect(outcome.headers).toEqual(refusal.headers);
    expect(seen.refused).toEqual(['prediction']);
    expect(seen.metered).toEqual([]);
    expect(ran).toEqual(['route key_1']);
  });

  it('a quota store that cannot answer is a 503 at once, with Retry-After: never unmetered traffic', async () => {
    const down = new QuotaUnavailableError(new Error('Connection is closed.'));
    const { edge, seen } = edgeWith(PRINCIPAL, { marketData: down });
    const outcome = await admit(edge, request(KEY).req);
    expect(errorOf(outcome)).toMatchObject({ status: 503, message: 'rate limiting is temporarily unavailable; retry shortly' });
    expect(outcome.headers).toEqual({ 'Retry-After': '1' });
    expect(seen.degraded).toEqual([down]);
    expect(seen.metered).toEqual([]);
  });

  it('any other failure of the quota is classified, and is not told as a degraded answer', async () => {
    const bug = new TypeError('x is undefined');
    const { edge, seen } = edgeWith(PRINCIPAL, { marketData: bug });
    expect(errorOf(await admit(edge, request(KEY).req)).status).toBe(500);
    expect(seen.classified).toEqual([bug]);
    expect(seen.degraded).toEqual([]);
  });
});

describe('step 5, the parameters', () => {
  it("a parameter refusal is a 400 that carries the spent unit's headers, beside its own", async () => {
    const { edge, seen } = edgeWith(PRINCIPAL, { marketData: allowed(60, 30, 100) });
    const outcome = await admit(
      edge,
      request(KEY, { marketData: 'FREE' }, { parameters: () => new ApiError(400, 'limit must be 1..500', { 'X-Hint': 'limit' }) }).req,
    );
    expect(errorOf(outcome)).toMatchObject({ status: 400, message: 'limit must be 1..500' });
    expect(outcome.headers).toEqual({ 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '30', 'X-RateLimit-Reset': '100', 'X-Hint': 'limit' });
    expect(seen.metered).toEqual(['key_1 A GET /api/v1/quotes']);
  });

  it('an admission from memory sets no store deadline', async () => {
    const { edge } = edgeWith(PRINCIPAL);
    expect(await admit(edge, request(KEY).req)).toMatchObject({ admitted: true, storeDeadline: undefined });
  });
});

it('the metrics and usage hooks are optional: without them the answers are the same', async () => {
  const spentWindow: QuotaDecision = { allowed: false, headers: { 'X-RateLimit-Remaining': '0', 'Retry-After': '5' } };
  const answers: [Partial<Record<Product, QuotaDecision | Error>>, number | true][] = [
    [{ marketData: allowed(60, 1, 100) }, true],
    [{ marketData: spentWindow }, 429],
    [{ marketData: new QuotaUnavailableError(new Error('down')) }, 503],
  ];
  for (const [quotaAnswers, expected] of answers) {
    const edge = createEdge({
      variant: 'B',
      authenticator: authenticatorAnswering(PRINCIPAL).authenticator,
      quota: quotaAnswering(quotaAnswers).quota,
      now: () => NOW,
      classify: (_where, error) => (error instanceof ApiError ? error : new ApiError(500, 'internal error')),
    });
    const outcome = await admit(edge, request(KEY).req);
    expect(outcome.admitted ? true : outcome.error.status).toBe(expected);
  }
});
