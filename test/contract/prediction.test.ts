/**
 * Variant B contract (api-spec.md + D3..D10), table-driven from the route table where it can be:
 * statuses, the `ok` envelope, `?apikey=`, the Pro plan, 60 a minute, `limit`, ordering, field
 * types and rounding, the stable brief, and the same answers through /graphql.
 */
import { expectErrorEnvelope, ISO_MS } from '../support/envelopes.js';
import { judge, recordAnswers, sampleEveryPath } from '../support/openapi-judge.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { graphqlPost } from '../support/graphql-call.js';

let t: TestService;
/** Every answer of this suite, judged against the served OpenAPI document by the last test. */
let answers: ReturnType<typeof recordAnswers>;
let pro: string;
let marketDataOnly: string;

beforeAll(async () => {
  t = await startTestService();
  answers = recordAnswers(t.b);
  pro = (await t.createKey('free', 'pro')).key;
  marketDataOnly = (await t.createKey('enterprise', 'none')).key;
});
afterAll(() => t?.close());

const freshKey = async () => (await t.createKey('free', 'pro')).key;
const expectB = (body: unknown, status: number, type: string) => expectErrorEnvelope(body, status, type, 'B');

/** Stores `count` movement alerts the way ingest does: store first, then the read model. */
async function seedAlerts(count: number): Promise<void> {
  const market = t.service.predictions.top(1, t.clock.now())[0]!.market;
  const base = t.clock.now() - 2 * 86_400_000;
  const alerts = Array.from({ length: count }, (_, i) => ({
    id: `mvmt_seed${i}`,
    marketId: market.id,
    question: market.question,
    oldPct: 40,
    newPct: 46.25,
    deltaPts: 6.3,
    detectedAt: base + i * 1000,
  }));
  t.service.predictions.addAlerts(await t.service.store.prediction.recordMovements([], alerts));
}

/** The documented paths, as the contract lists them (not read from the code under test). */
const DOCUMENTED = ['/markets', '/brief', '/alerts'];

describe.each(DOCUMENTED.map((path) => [path]))('GET /api/v1%s', (path) => {
  const url = `/api/v1${path}`;

  it('401 without a key, with an unknown key or a malformed header, in the ok envelope', async () => {
    for (const headers of [{}, bearer(`mgw_${'x'.repeat(40)}`), { Authorization: 'Basic abc' }]) {
      const res = await t.b.get(url).set(headers);
      expect(res.status).toBe(401);
      expectB(res.body, 401, 'unauthorized');
      expect(res.headers['x-ratelimit-remaining']).toBeUndefined();
    }
    expect((await t.b.get(`${url}?apikey=mgw_${'y'.repeat(40)}`)).status).toBe(401);
  });

  it('takes the key as ?apikey= too; the header wins where both are given', async () => {
    const viaQuery = await t.b.get(`${url}?apikey=${pro}`);
    expect(viaQuery.status).toBe(200);
    expect(viaQuery.body.ok).toBe(true);
    expect((await t.b.get(`${url}?apikey=${pro}`).set(bearer(`mgw_${'z'.repeat(40)}`))).status).toBe(401);
    expect((await t.b.get(`${url}?apikey=mgw_${'z'.repeat(40)}`).set(bearer(pro))).status).toBe(200);
  });

  it('403 without the prediction Pro plan, whatever the market-data plan', async () => {
    const res = await t.b.get(url).set(bearer(marketDataOnly));
    expect(res.status).toBe(403);
    expectB(res.body, 403, 'forbidden');
    expect(res.body.error.message).toMatch(/pro/i);
  });

  it('405 with Allow for other methods, after authentication', async () => {
    const res = await t.b.post(url).set(bearer(pro));
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expectB(res.body, 405, 'method_not_allowed');
    expect((await t.b.put(url)).status).toBe(401);
  });

  it('200 in the ok envelope with the minute window of D4 (no day limit on this plan)', async () => {
    const key = await freshKey();
    const res = await t.b.get(url).set(bearer(key));
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.headers['x-ratelimit-limit']).toBe('60');
    expect(res.headers['x-ratelimit-remaining']).toBe('59');
    expect(Number(res.headers['x-ratelimit-reset'])).toBe((Math.floor(t.clock.now() / 60_000) + 1) * 60);
  });

  it('ignores unknown parameters', async () => {
    const res = await t.b.get(`${url}?foo=1&foo=2&x[y]=1`).set(bearer(pro));
    expect(res.status).toBe(200);
  });
});

describe('routing and quota', () => {
  it('unknown path under /api/v1: 401 without a key, 404 with one', async () => {
    expect((await t.b.get('/api/v1/nope')).status).toBe(401);
    const res = await t.b.get('/api/v1/nope').set(bearer(pro));
    expect(res.status).toBe(404);
    expectB(res.body, 404, 'not_found');
  });

  it('exactly 60 a minute; the 61st is 429 with Retry-After and costs nothing; the next minute resets', async () => {
    const key = await freshKey();
    const statuses = [];
    for (let i = 0; i < 60; i++) statuses.push((await t.b.get('/api/v1/markets').set(bearer(key))).status);
    expect(statuses).toEqual(Array(60).fill(200));
    const refused = await t.b.get('/api/v1/alerts').set(bearer(key));
    expect(refused.status).toBe(429);
    expectB(refused.body, 429, 'rate_limit_exceeded');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    t.clock.advance(60_000);
    const next = await t.b.get('/api/v1/alerts').set(bearer(key));
    expect(next.status).toBe(200);
    expect(next.headers['x-ratelimit-remaining']).toBe('59');
  });

  it('400 consumes a unit; 401, 403, 404 and 405 do not', async () => {
    const key = await freshKey();
    await t.b.get('/api/v1/nope').set(bearer(key));
    await t.b.delete('/api/v1/alerts').set(bearer(key));
    const bad = await t.b.get('/api/v1/alerts?limit=0').set(bearer(key));
    expect(bad.status).toBe(400);
    expect(bad.headers['x-ratelimit-remaining']).toBe('59');
    expect((await t.b.get('/api/v1/markets').set(bearer(key))).headers['x-ratelimit-remaining']).toBe('58');
  });
});

describe('GET /api/v1/markets', () => {
  it('the 50 most active markets by 24-hour volume, ties by question, with typed and rounded fields', async () => {
    const res = await t.b.get('/api/v1/markets').set(bearer(pro));
    expect(res.status).toBe(200);
    const { count, markets } = res.body;
    expect(Object.keys(res.body).sort()).toEqual(['count', 'markets', 'ok']);
    expect(count).toBe(50);
    expect(markets).toHaveLength(50);
    for (let i = 1; i < markets.length; i++) {
      const [a, b] = [markets[i - 1], markets[i]];
      expect(a.volume_24h > b.volume_24h || (a.volume_24h === b.volume_24h && a.question <= b.question)).toBe(true);
    }
    for (const m of markets) {
      expect(Object.keys(m).sort()).toEqual(['prob', 'prob_pct', 'question', 'signal', 'source', 'url', 'volume_24h']);
      expect(m.question.length).toBeGreaterThan(10);
      expect(m.prob).toBeGreaterThanOrEqual(0);
      expect(m.prob).toBeLessThanOrEqual(1);
      const basisPoints = Math.round(m.prob * 10_000);
      expect(Math.abs(m.prob * 10_000 - basisPoints)).toBeLessThan(1e-6); // at most 4 decimals
      expect(m.prob_pct).toBe(Math.floor((basisPoints + 50) / 100)); // round(prob * 100), halves up
      expect(Number.isInteger(m.volume_24h)).toBe(true);
      expect(['hot', 'watch', 'rising', 'wait']).toContain(m.signal);
      expect(m.url).toMatch(/^https:\/\//);
      // The demo's venues: its own, and the two that list some of its questions again (market links).
      expect(['demo', 'demo-exchange', 'demo-crowd']).toContain(m.source);
    }
    // The 50 are the most active of every tracked market.
    const tracked = t.service.predictions
      .all()
      .map((m) => Math.round(m.volume24h))
      .sort((a, b) => b - a);
    expect(tracked.length).toBeGreaterThanOrEqual(80);
    expect(markets[49].volume_24h).toBeGreaterThanOrEqual(tracked[50]!);
    // A scored list: the demo data is varied enough to show more than one signal.
    expect(new Set(markets.map((m: { signal: string }) => m.signal)).size).toBeGreaterThan(1);
  });
});

describe('GET /api/v1/alerts', () => {
  beforeAll(() => seedAlerts(130));

  it('default 20, newest detected first, movements of more than 5 points with delta_pts = new_pct - old_pct', async () => {
    const res = await t.b.get('/api/v1/alerts').set(bearer(pro));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['alerts', 'count', 'ok']);
    expect(res.body.count).toBe(20);
    expect(res.body.alerts).toHaveLength(20);
    const times = res.body.alerts.map((a: { detected_at: string }) => Date.parse(a.detected_at));
    expect(times).toEqual([...times].sort((x, y) => y - x));
    for (const a of res.body.alerts) {
      expect(Object.keys(a).sort()).toEqual(['delta_pts', 'detected_at', 'new_pct', 'old_pct', 'question', 'type']);
      expect(a.type).toBe('movement');
      expect(a.detected_at).toMatch(ISO_MS);
      expect(Math.abs(a.new_pct - a.old_pct)).toBeGreaterThan(5);
      // One decimal, halves away from zero (docs/prediction-method.md: -17.15 reads -17.2, mirroring +17.15).
      const hundredths = Math.round((a.new_pct - a.old_pct) * 100);
      expect(a.delta_pts).toBeCloseTo((Math.sign(hundredths) * Math.round(Math.abs(hundredths) / 10)) / 10, 9);
      expect(Math.round(a.delta_pts * 10)).toBeCloseTo(a.delta_pts * 10, 9); // one decimal
    }
  });

  it('the demo feed has real movements right after start', async () => {
    const demo = t.service.predictions.latestAlerts(100).filter((a) => !a.id.startsWith('mvmt_seed'));
    expect(demo.length).toBeGreaterThan(0);
  });

  it.each([
    ['1', 1],
    ['100', 100],
    ['101', 100],
    ['5000', 100],
    ['99999999999999999999', 100],
    ['+7', 7],
  ])('limit=%s answers %i', async (limit, expected) => {
    const res = await t.b.get(`/api/v1/alerts?limit=${limit}`).set(bearer(pro));
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(expected);
    expect(res.body.alerts).toHaveLength(expected);
  });

  it.each(['0', '-1', '-99999999999999999999', '1.5', 'abc', '', '1e2'])('limit=%s is a 400 naming the rule', async (limit) => {
    const res = await t.b.get(`/api/v1/alerts?limit=${encodeURIComponent(limit)}`).set(bearer(pro));
    expect(res.status).toBe(400);
    expectB(res.body, 400, 'bad_request');
    expect(res.body.error.message).toMatch(/^limit must be an integer/);
  });

  it('limit given twice or nested is a 400', async () => {
    for (const q of ['limit=5&limit=6', 'limit[a]=5', 'limit[]=5']) {
      const res = await t.b.get(`/api/v1/alerts?${q}`).set(bearer(pro));
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('limit');
    }
  });
});

describe('GET /api/v1/brief', () => {
  it('one brief per UTC date with a stable generated_at; a new date gets a new brief', async () => {
    const first = await t.b.get('/api/v1/brief').set(bearer(pro));
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(['brief', 'date', 'generated_at', 'ok']);
    expect(first.body.date).toBe(new Date(t.clock.now()).toISOString().slice(0, 10));
    expect(first.body.generated_at).toMatch(ISO_MS);
    expect(first.body.brief.length).toBeGreaterThan(100);

    const [a, b] = await Promise.all([t.b.get('/api/v1/brief').set(bearer(pro)), t.b.get('/api/v1/brief').set(bearer(pro))]);
    expect(a.body).toEqual(first.body);
    expect(b.body).toEqual(first.body);

    const endOfDay = (Math.floor(t.clock.now() / 86_400_000) + 1) * 86_400_000;
    t.clock.value = endOfDay - 1_000;
    expect((await t.b.get('/api/v1/brief').set(bearer(pro))).body).toEqual(first.body);

    t.clock.value = endOfDay + 1_000;
    const next = await t.b.get('/api/v1/brief').set(bearer(pro));
    expect(next.body.date).toBe(new Date(endOfDay).toISOString().slice(0, 10));
    expect(next.body.generated_at).toBe(new Date(endOfDay + 1_000).toISOString());
    // Stored: the same after the read model forgets it (a restart would read it back).
    expect(await t.service.store.prediction.getBrief(next.body.date)).toMatchObject({ brief: next.body.brief });
  });
});

describe('REST and GraphQL give the same answer', () => {
  const graphql = (query: string, key = pro) => graphqlPost(t.b, key, query);

  it('markets, alerts and brief', async () => {
    const [rest, gql] = await Promise.all([
      t.b.get('/api/v1/markets').set(bearer(pro)),
      graphql('{ predictionMarkets { count items { question probability probabilityPct volume24h signal url source } } }'),
    ]);
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.predictionMarkets.count).toBe(rest.body.count);
    expect(
      gql.body.data.predictionMarkets.items.map((m: Record<string, unknown>) => ({
        question: m.question,
        prob: m.probability,
        prob_pct: m.probabilityPct,
        volume_24h: m.volume24h,
        signal: String(m.signal).toLowerCase(),
        url: m.url,
        source: m.source,
      })),
    ).toEqual(rest.body.markets);
    // REST runs the same operation as the query above: both are also held to the read model itself.
    const top = t.service.predictions.top(50, t.clock.now());
    expect(top.length).toBeGreaterThan(0);
    expect(
      rest.body.markets.map((m: { question: string; prob: number; signal: string; url: string; source: string }) => ({
        question: m.question,
        prob: Math.round(m.prob * 10_000),
        signal: m.signal,
        url: m.url,
        source: m.source,
      })),
    ).toEqual(
      top.map((s) => ({
        question: s.market.question,
        prob: Math.round(s.market.prob * 10_000),
        signal: s.signal.toLowerCase(),
        url: s.market.url,
        source: s.market.source,
      })),
    );

    const alerts = await graphql('{ movementAlerts(limit: 7) { count items { question oldPct newPct deltaPts type detectedAt market { id question } } } }');
    const restAlerts = (await t.b.get('/api/v1/alerts?limit=7').set(bearer(pro))).body.alerts;
    expect(
      alerts.body.data.movementAlerts.items.map((a: Record<string, unknown>) => ({
        question: a.question,
        old_pct: a.oldPct,
        new_pct: a.newPct,
        delta_pts: a.deltaPts,
        type: a.type,
        detected_at: a.detectedAt,
      })),
    ).toEqual(restAlerts);
    for (const a of alerts.body.data.movementAlerts.items) expect(a.market.question).toBe(a.question);
    const stored = await t.service.store.prediction.latestAlerts(7);
    expect(stored.length).toBeGreaterThan(0);
    expect(restAlerts.map((a: { question: string; detected_at: string }) => [a.question, a.detected_at])).toEqual(
      stored.map((a) => [a.question, new Date(a.detectedAt).toISOString()]),
    );

    const brief = await graphql('{ morningBrief { date brief generatedAt } }');
    const restBrief = (await t.b.get('/api/v1/brief').set(bearer(pro))).body;
    expect(brief.body.data.morningBrief).toEqual({ date: restBrief.date, brief: restBrief.brief, generatedAt: restBrief.generated_at });
    expect(await t.service.store.prediction.getBrief(restBrief.date)).toMatchObject({ brief: restBrief.brief });
  });

  it('FORBIDDEN on /graphql without the prediction plan, BAD_USER_INPUT out of bounds', async () => {
    const forbidden = await graphql('{ predictionMarkets { count } }', marketDataOnly);
    expect(forbidden.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const tooMany = await graphql('{ movementAlerts(limit: 101) { count } }');
    expect(tooMany.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});

describe('OpenAPI of variant B', () => {
  it('documents every route of the table with its 200 schema, publicly', async () => {
    const res = await t.b.get('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\.1/);
    expect(Object.keys(res.body.paths).sort()).toEqual(['/api/v1/alerts', '/api/v1/brief', '/api/v1/markets']);
    const alerts = res.body.paths['/api/v1/alerts'].get;
    const limit = alerts.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit.schema).toMatchObject({ type: 'integer', minimum: 1, default: 20 });
    expect(limit.schema.maximum).toBeUndefined(); // above 100 is taken as 100, not refused
    expect(JSON.stringify(alerts.responses['200'])).toContain('delta_pts');
  });
});

describe('caching (ETag, 304, Cache-Control)', () => {
  it('answers If-None-Match with a 304 and no body, still counting the request; new data changes the ETag', async () => {
    const key = await freshKey();
    const first = await t.b.get('/api/v1/alerts?limit=5').set(bearer(key));
    expect(first.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('private, max-age=5');
    const again = await t.b.get('/api/v1/alerts?limit=5').set(bearer(key)).set('If-None-Match', first.headers.etag!);
    expect(again.status).toBe(304);
    expect(again.text ?? '').toBe('');
    expect(Number(again.headers['x-ratelimit-remaining'])).toBe(Number(first.headers['x-ratelimit-remaining']) - 1);

    // A new movement, the newest of all, as ingest records it: store first, then the read model.
    const market = t.service.predictions.top(1, t.clock.now())[0]!.market;
    const fresh = { id: 'mvmt_fresh', marketId: market.id, question: market.question, oldPct: 20, newPct: 30, deltaPts: 10, detectedAt: t.clock.now() };
    t.service.predictions.addAlerts(await t.service.store.prediction.recordMovements([], [fresh]));
    const changed = await t.b.get('/api/v1/alerts?limit=5').set(bearer(key)).set('If-None-Match', first.headers.etag!);
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(first.headers.etag);
    expect(changed.body.alerts).not.toEqual(first.body.alerts);
  });

  it('the same parameters in another spelling share the cached answer', async () => {
    const key = await freshKey();
    const a = await t.b.get('/api/v1/alerts?limit=7').set(bearer(key));
    const b = await t.b.get('/api/v1/alerts?limit=+7&unknown=1').set(bearer(key));
    expect(b.headers.etag).toBe(a.headers.etag);
  });
});

// Last, so it sees every answer above: an outside judge (the OpenAPI 3.1 schema, Ajv) reads them
// against the document this listener serves.
it('every answer of this suite conforms to the OpenAPI document the listener serves', async () => {
  // Its own answers too: run alone, it still judges every documented path (with a key, and without).
  const own = await sampleEveryPath(t.b, pro, {});
  const { problems, judged } = await judge(t.b, answers);
  expect(problems).toEqual([]);
  expect(judged).toBeGreaterThanOrEqual(own);
});
