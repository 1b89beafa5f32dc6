import { createAuthenticator } from '../../../src/auth/authenticator.js';
import type { MarketDataPlan, Product } from '../../../src/domain/account.js';
import { createEdge, type Edge, type Entrance, type PreparedTarget, type Presented, preparedEntrance } from '../../../src/edge/edge.js';
import pino from 'pino';
import { createClassifier } from '../../../src/edge/classify.js';
import { createDegradedAnswers } from '../../../src/edge/degraded.js';
import { ApiError } from '../../../src/domain/refusal.js';
import { createStoreQuota } from '../../../src/quota/index.js';
import { createStore, openStore, type Store } from '../../../src/store/index.js';
import { currentStoreDeadline, REQUEST_STATEMENT_MS } from '../../../src/deadline/request-deadline.js';
import { tempDataDir } from '../../support/engines.js';
import { issueKey } from '../../support/keys.js';

const NOW = Date.UTC(2026, 10, 24, 12, 0, 30);
let store: Store;
let edge: Edge;
const refused: Product[] = [];
/** What the edge told the usage records: `<key id> <usage name>` per metered request. */
const metered: string[] = [];

beforeAll(async () => {
  store = createStore(await openStore({ dataDir: tempDataDir() }));
  const quota = createStoreQuota(store.connection);
  edge = createEdge({
    variant: 'B',
    authenticator: createAuthenticator({ accounts: store.accounts, pollMs: 60_000 }),
    quota,
    now: () => NOW,
    classify: createClassifier(createDegradedAnswers(pino({ level: 'silent' })), pino({ level: 'silent' })),
    onRefused: (p) => refused.push(p),
    onMetered: (principal, usageName) => metered.push(`${principal.keyId} ${usageName}`),
  });
});
afterAll(() => store?.connection.close());

const keyOf = async (plan: MarketDataPlan) => (await issueKey(store, { plan, now: NOW })).key;

/** A transport's entrance and the key a request presented, in one. */
type TestRequest = Presented & Entrance<void, string, number>;

/** A request for the free market-data plan whose steps record that they ran. */
function request(key: string | undefined, overrides: Partial<TestRequest> = {}) {
  const ran: string[] = [];
  const req: TestRequest = {
    transport: 'rest',
    key,
    find: () => {
      ran.push('route');
      return 'markets';
    },
    access: () => ({ requirements: { marketData: 'FREE' }, what: 'GET /api/v1/markets', usageName: 'B GET /api/v1/markets' }),
    parameters: () => {
      ran.push('parameters');
      return 5;
    },
    ...overrides,
  };
  return { req, ran };
}

/** Admits `req` through a door of `on` made for it. */
const admit = (on: Edge, req: TestRequest) => on.door(req).admit(req, undefined);

const statusOf = (refusal: unknown) => (refusal instanceof ApiError ? refusal.status : refusal);

/** What the quota has left this minute, without spending: X-RateLimit-Remaining of the next admitted request, plus one. */
async function remaining(key: string): Promise<number> {
  const outcome = await admit(edge, request(key).req);
  return Number(outcome.headers['X-RateLimit-Remaining']) + 1;
}

it('admits in order and returns the rate-limit headers of the tightest window', async () => {
  const key = await keyOf('free');
  const { req, ran } = request(key);
  const outcome = await admit(edge, req);
  expect(outcome).toMatchObject({ admitted: true, target: 'markets', params: 5 });
  expect(ran).toEqual(['route', 'parameters']);
  expect(outcome.headers).toMatchObject({ 'X-RateLimit-Limit': '10', 'X-RateLimit-Remaining': '9' });
});

it('refuses a wrong or missing key first, before the route is looked at, saying which case it is', async () => {
  const cases: [string | undefined, RegExp, string][] = [
    [undefined, /^an API key is required: send it as "Authorization: Bearer <key>" or \?apikey=<key>;/, 'Bearer realm="market-gateway"'],
    ['', /^malformed API key/, 'Bearer realm="market-gateway", error="invalid_token", error_description="malformed API key"'],
    [`mgw_${'x'.repeat(40)}`, /^unknown API key/, 'Bearer realm="market-gateway", error="invalid_token", error_description="unknown API key"'],
  ];
  for (const [key, message, challenge] of cases) {
    const { req, ran } = request(key, { keyInQuery: true });
    const outcome = await admit(edge, req);
    expect(outcome.admitted).toBe(false);
    expect(statusOf(!outcome.admitted && outcome.error)).toBe(401);
    expect(!outcome.admitted && (outcome.error as ApiError).message).toMatch(message);
    expect(outcome.headers['WWW-Authenticate']).toBe(challenge);
    expect(ran).toEqual([]);
  }
});

it('lets an open target through without a key, and judges a missing key after the route where targets may be open', async () => {
  const open = request(undefined, {
    mayBeOpen: true,
    access: () => ({ requirements: {}, what: 'introspection', usageName: 'IntrospectionQuery', open: true }),
  });
  expect(await admit(edge, open.req)).toMatchObject({ admitted: true, principal: null, headers: {} });
  const closed = request(undefined, { mayBeOpen: true });
  const outcome = await admit(edge, closed.req);
  expect(statusOf(!outcome.admitted && outcome.error)).toBe(401);
  expect(closed.ran).toEqual(['route']);
});

it('a route or plan refusal spends nothing; a parameter refusal spends one unit and carries the headers', async () => {
  const key = await keyOf('free');
  const before = await remaining(key);

  const noRoute = await admit(
    edge,
    request(key, {
      find: () => new ApiError(404, 'no endpoint'),
    }).req,
  );
  expect(statusOf(!noRoute.admitted && noRoute.error)).toBe(404);
  const noPlan = await admit(
    edge,
    request(key, { access: () => ({ requirements: { marketData: 'PRO' }, what: 'GET /api/v1/brief', usageName: 'B GET /api/v1/brief' }) }).req,
  );
  expect(statusOf(!noPlan.admitted && noPlan.error)).toBe(403);
  expect(!noPlan.admitted && (noPlan.error as ApiError).message).toBe(
    "GET /api/v1/brief needs the pro market-data plan or higher; this key's market-data plan is free: ask the operator of this gateway to change the account's plan",
  );
  expect(await remaining(key)).toBe(before - 1); // only the probe itself

  const badParams = await admit(
    edge,
    request(key, {
      parameters: () => new ApiError(400, 'limit must be 1..500'),
    }).req,
  );
  expect(statusOf(!badParams.admitted && badParams.error)).toBe(400);
  expect(badParams.headers['X-RateLimit-Remaining']).toBe(String(before - 3));
});

it('tells the usage records of exactly the requests that spent quota: a parameter refusal yes; a key, route, plan or quota refusal no', async () => {
  const issued = await issueKey(store, { plan: 'free', now: NOW });
  metered.length = 0;
  await admit(edge, request(issued.key).req);
  await admit(edge, request(issued.key, { parameters: () => new ApiError(400, 'limit must be 1..500') }).req);
  await admit(edge, request(issued.key, { find: () => new ApiError(404, 'no endpoint') }).req);
  await admit(
    edge,
    request(issued.key, { access: () => ({ requirements: { marketData: 'PRO' }, what: 'GET /api/v1/brief', usageName: 'B GET /api/v1/brief' }) }).req,
  );
  await admit(edge, request(`mgw_${'x'.repeat(40)}`).req);
  await admit(
    edge,
    request(undefined, { mayBeOpen: true, access: () => ({ requirements: {}, what: 'introspection', usageName: 'IntrospectionQuery', open: true }) }).req,
  );
  const id = issued.keyId;
  expect(metered).toEqual([`${id} B GET /api/v1/markets`, `${id} B GET /api/v1/markets`]);
  for (let i = 0; i < 8; i++) await admit(edge, request(issued.key).req); // the free plan's 10 a minute
  metered.length = 0;
  expect((await admit(edge, request(issued.key).req)).admitted).toBe(false);
  expect(metered).toEqual([]);
});

it('refuses a spent quota with 429, Retry-After and the limit headers, and counts it by product', async () => {
  const key = await keyOf('free');
  for (let i = 0; i < 10; i++) expect((await admit(edge, request(key).req)).admitted).toBe(true);
  refused.length = 0;
  const { req, ran } = request(key);
  const outcome = await admit(edge, req);
  expect(statusOf(!outcome.admitted && outcome.error)).toBe(429);
  expect(outcome.headers).toMatchObject({ 'X-RateLimit-Remaining': '0', 'Retry-After': '30' });
  expect(ran).toEqual(['route']);
  expect(refused).toEqual(['marketData']);
});

it('classifies what a dependency throws once, into the refusal the transport renders', async () => {
  const failing = createEdge({
    variant: 'B',
    authenticator: { check: async () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })) } as never,
    quota: createStoreQuota(store.connection),
    now: () => NOW,
    classify: (where, error) => new ApiError(503, `${where}: ${(error as Error).message}`),
  });
  const outcome = await admit(failing, request('mgw_x').req);
  expect(outcome).toMatchObject({ admitted: false, error: { status: 503, message: 'rest: connect ECONNREFUSED' } });
});

/** An edge whose authentication waits `ms` first. */
function waitingEdge(ms: number): Edge {
  const authenticator = createAuthenticator({ accounts: store.accounts, pollMs: 60_000 });
  return createEdge({
    variant: 'B',
    authenticator: { check: async (k: string) => new Promise((r) => setTimeout(r, ms)).then(() => authenticator.check(k)) } as never,
    quota: createStoreQuota(store.connection),
    now: () => NOW,
    classify: (_where, error) => error as ApiError,
  });
}

it("an admission that waited on the store gives the request a deadline for its statements, counted from the admission's start", async () => {
  const key = await keyOf('free');
  // A known key's re-read on a failing database: answered from its entry after 250 ms.
  const before = performance.now();
  const outcome = await admit(waitingEdge(250), request(key).req);
  const after = performance.now();
  expect(outcome.admitted).toBe(true);
  const began = (outcome as { storeDeadline: number }).storeDeadline - REQUEST_STATEMENT_MS;
  // Not a whole bound from now: the admission's wait is taken out of it.
  expect(began).toBeGreaterThanOrEqual(before);
  expect(began).toBeLessThanOrEqual(after - 240);
  // A short wait (a busy but healthy store) leaves the statements their whole bound: no deadline.
  expect(await admit(waitingEdge(30), request(key).req)).toMatchObject({ admitted: true, storeDeadline: undefined });
});

it('serves the admitted work within its deadline on the store, and a refusal outside any', async () => {
  const key = await keyOf('free');
  const { req } = request(key);
  /** What the work saw: the outcome and the deadline its statements run within. */
  const serve = (on: Edge, presented: Presented) =>
    on.door(req).serve(presented, undefined, async (outcome) => ({ outcome, deadline: currentStoreDeadline() }));
  const slow = await serve(waitingEdge(250), { key });
  expect(slow.outcome.admitted).toBe(true);
  expect(slow.deadline).toBeDefined();
  expect(slow.deadline).toBe(slow.outcome.admitted && slow.outcome.storeDeadline);
  const refused = await serve(waitingEdge(250), { key: `mgw_${'x'.repeat(40)}` });
  expect(refused).toMatchObject({ outcome: { admitted: false, error: { status: 401 } }, deadline: undefined });
  expect(await serve(edge, { key })).toMatchObject({ outcome: { admitted: true }, deadline: undefined });
  expect(currentStoreDeadline()).toBeUndefined();
});

it('a refusal after the route step still names the target it found', async () => {
  const key = await keyOf('free');
  const outcome = await admit(edge, request(key, { parameters: () => new ApiError(400, 'limit must be 1..500') }).req);
  expect(outcome).toMatchObject({ admitted: false, target: 'markets' });
  expect(await admit(edge, request(`mgw_${'x'.repeat(40)}`).req)).toMatchObject({ admitted: false, target: undefined });
});

it('a target found but closed is refused before its plan and quota, its answer still naming it', async () => {
  const key = await keyOf('free');
  const before = await remaining(key);
  const { req, ran } = request(key, { closed: (target) => new ApiError(410, `${target} is gone`) });
  const outcome = await admit(edge, req);
  expect(outcome).toMatchObject({ admitted: false, error: { status: 410, message: 'markets is gone' }, target: 'markets' });
  expect(ran).toEqual(['route']);
  expect(await remaining(key)).toBe(before - 1); // only the probe itself
});

describe('a prepared entrance: the target the table found, read as data', () => {
  interface Input {
    found: Target | ApiError;
    limit: number;
  }
  interface Target extends PreparedTarget<Input, number> {
    name: string;
  }
  let clock = NOW;
  const entrance = preparedEntrance<Input, Target, number>('rest', { keyInQuery: true, now: () => clock });
  const sunset = NOW + 60_000;
  const target: Target = {
    name: 'markets',
    access: { requirements: { marketData: 'FREE' }, what: 'GET /api/v1/markets', usageName: 'B GET /api/v1/markets' },
    gone: (now) => (now >= sunset ? new ApiError(410, 'gone at its sunset') : undefined),
    parameters: (input) => (input.limit > 0 ? input.limit * 2 : new ApiError(400, 'limit must be positive')),
  };
  const door = () => edge.door(entrance);

  it("admits the found target with its own access and its parameters' check of the request", async () => {
    const outcome = await door().admit({ key: await keyOf('free') }, { found: target, limit: 3 });
    expect(outcome).toMatchObject({ admitted: true, target: { name: 'markets' }, params: 6 });
    const refused = await door().admit({ key: await keyOf('free') }, { found: target, limit: 0 });
    expect(refused).toMatchObject({ admitted: false, error: { status: 400, message: 'limit must be positive' }, target: { name: 'markets' } });
    const withoutSunset = { ...target, gone: undefined };
    expect(await door().admit({ key: await keyOf('free') }, { found: withoutSunset, limit: 1 })).toMatchObject({ admitted: true });
  });

  it("says the table's refusal only after the key step, and a missing key's 401 names ?apikey", async () => {
    const notFound = new ApiError(404, 'no endpoint /nope under /api/v1');
    const withoutKey = await door().admit({ key: undefined }, { found: notFound, limit: 1 });
    expect(withoutKey).toMatchObject({ admitted: false, error: { status: 401 } });
    expect(withoutKey.admitted || withoutKey.error.message).toContain('?apikey=<key>');
    expect(await door().admit({ key: await keyOf('free') }, { found: notFound, limit: 1 })).toMatchObject({ admitted: false, error: { status: 404 } });
  });

  it('refuses a target past its sunset, on the clock it was given, before any quota is spent', async () => {
    const key = await keyOf('free');
    clock = sunset - 1;
    expect(await door().admit({ key }, { found: target, limit: 1 })).toMatchObject({ admitted: true });
    const before = await remaining(key);
    clock = sunset;
    expect(await door().admit({ key }, { found: target, limit: 1 })).toMatchObject({ admitted: false, error: { status: 410 }, target: { name: 'markets' } });
    expect(await remaining(key)).toBe(before - 1); // only the probe itself
    clock = NOW;
  });
});

it("classify: a library's 4xx is the client's, a dependency's failure a 503, anything else a bare 500", () => {
  const classify = createClassifier(createDegradedAnswers(pino({ level: 'silent' })), pino({ level: 'silent' }));
  expect(classify('http', Object.assign(new Error('URIError: URI malformed'), { status: 400, expose: true }))).toMatchObject({
    status: 400,
    message: 'bad request',
  });
  expect(classify('http', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toMatchObject({ status: 503 });
  expect(classify('http', Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }))).toMatchObject({ status: 503 });
  expect(classify('http', new TypeError('x is undefined'))).toMatchObject({ status: 500, message: 'internal error' });
});

it("classify: raw-body's refusals of a body are the client's: too large a 413 naming the limit, else unreadable, with GraphQL's code", async () => {
  const classify = createClassifier(createDegradedAnswers(pino({ level: 'silent' })), pino({ level: 'silent' }));
  const { default: getRawBody } = await import('raw-body');
  const { Readable } = await import('node:stream');
  const failure = (body: string, options: { limit: number; length?: number }) =>
    getRawBody(Readable.from([Buffer.from(body)]), options).catch((e: unknown) => e);
  const large = classify('graphql', await failure('x'.repeat(20), { limit: 10 }));
  expect([large.status, large.message, large.graphql]).toEqual([413, 'request body too large (at most 10 bytes)', { code: 'BAD_USER_INPUT' }]);
  const short = classify('graphql', await failure('xx', { limit: 10, length: 5 }));
  expect([short.status, short.message, short.graphql]).toEqual([400, 'unreadable request body', { code: 'BAD_USER_INPUT' }]);
});
