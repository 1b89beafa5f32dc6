/**
 * Routes an operator declares deprecated (LEGACY_DEPRECATIONS): their answers carry Deprecation
 * (RFC 9745), Sunset (RFC 8594) and Link (RFC 8288), read here with independent parsers; their
 * OpenAPI operations say so; past the sunset with LEGACY_ENFORCE_SUNSET=1 they answer 410 gone in
 * the variant's envelope, before any quota is spent. docs/migration.md.
 */
import LinkHeader from 'http-link-header';
import { parseItem } from 'structured-headers';
import type supertest from 'supertest';
import { judge, recordAnswers } from '../support/openapi-judge.js';
import { bearer, midMinute, startTestService, TestClock, type TestService } from '../support/service.js';

const HOUR_MS = 3_600_000;
const BRIEF_PAGE = 'https://example.com/retire/brief';
const ALERTS_PAGE = 'https://example.com/retire/movement-alerts';
/** A declaration as an operator writes it. */
const declare = (declared: Record<string, { deprecated: string; sunset?: string; link?: string }>) => JSON.stringify(declared);
const IMF_FIXDATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** The three headers as a client reads them. */
function deprecationOf(res: supertest.Response) {
  const [deprecated] = parseItem(res.headers.deprecation!);
  const links = LinkHeader.parse(res.headers.link!);
  const uri = (rel: string) => links.get('rel', rel).map((ref) => ref.uri);
  return { deprecated, sunset: res.headers.sunset, deprecation: uri('deprecation'), sunsetLinks: uri('sunset'), successor: uri('successor-version') };
}

describe('declared, not enforced', () => {
  let t: TestService;
  let pro: string;
  const answers: ReturnType<typeof recordAnswers>[] = [];
  beforeAll(async () => {
    t = await startTestService({
      env: {
        LEGACY_DEPRECATIONS: declare({
          'A GET /api/v1/brief': { deprecated: '2026-01-01', sunset: '2099-06-30T12:00:00+02:00', link: BRIEF_PAGE },
          // Past its sunset already: without enforcement, it still answers.
          'B GET /api/v1/alerts': { deprecated: '2019-06-01T00:00:00Z', sunset: '2020-01-01T00:00:00Z', link: ALERTS_PAGE },
          // Neither sunset nor page: only the date, and where to go.
          'B GET /api/v1/brief': { deprecated: '2025-03-04T05:06:07Z' },
        }),
      },
    });
    answers.push(recordAnswers(t.a), recordAnswers(t.b));
    pro = (await t.createKey('pro', 'pro')).key;
  });
  afterAll(() => t?.close());

  it("a declared route's answers carry Deprecation, Sunset and Link: 200, 304, HEAD, and its refusals once the route is known (400, 403)", async () => {
    const ok = await t.a.get('/api/v1/brief?symbols=BTC/USD').set(bearer(pro));
    const { key: free } = await t.createKey('free', 'none');
    const answered = [
      ok,
      await t.a.get('/api/v1/brief?symbols=BTC/USD').set(bearer(pro)).set('If-None-Match', ok.headers.etag!),
      await t.a.head('/api/v1/brief?symbols=BTC/USD').set(bearer(pro)),
      await t.a.get('/api/v1/brief').set(bearer(pro)),
      await t.a.get('/api/v1/brief?symbols=BTC/USD').set(bearer(free)),
    ];
    expect(answered.map((res) => res.status)).toEqual([200, 304, 200, 400, 403]);
    for (const res of answered) {
      expect(deprecationOf(res)).toEqual({
        deprecated: new Date('2026-01-01T00:00:00Z'),
        sunset: 'Tue, 30 Jun 2099 10:00:00 GMT',
        deprecation: [BRIEF_PAGE],
        sunsetLinks: [BRIEF_PAGE],
        successor: ['/graphql/operations/Brief.graphql'],
      });
      expect(res.headers.sunset).toMatch(IMF_FIXDATE);
      expect(new Date(res.headers.sunset!).getTime()).toBe(Date.parse('2099-06-30T10:00:00Z'));
    }
  });

  it('a declaration without sunset or page: the date, and the operation to move to', async () => {
    const res = await t.b.get('/api/v1/brief').set(bearer(pro));
    expect(res.status).toBe(200);
    expect(deprecationOf(res)).toEqual({
      deprecated: new Date('2025-03-04T05:06:07Z'),
      sunset: undefined,
      deprecation: [],
      sunsetLinks: [],
      successor: ['/graphql/operations/MorningBrief.graphql'],
    });
  });

  it('undeclared routes carry none of them, on either listener', async () => {
    for (const res of [await t.a.get('/api/v1/markets').set(bearer(pro)), await t.b.get('/api/v1/markets').set(bearer(pro))]) {
      expect(res.status).toBe(200);
      expect(res.headers['x-graphql-operation']).toBeDefined();
      expect([res.headers.deprecation, res.headers.sunset, res.headers.link]).toEqual([undefined, undefined, undefined]);
    }
  });

  it('past its sunset, without LEGACY_ENFORCE_SUNSET, a route still answers (and says it is past)', async () => {
    const res = await t.b.get('/api/v1/alerts?limit=2').set(bearer(pro));
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(deprecationOf(res)).toMatchObject({ sunset: 'Wed, 01 Jan 2020 00:00:00 GMT', deprecation: [ALERTS_PAGE], sunsetLinks: [ALERTS_PAGE] });
  });

  it('OpenAPI marks the declared operations deprecated, with the dates and the page, and stays valid for the judge', async () => {
    const doc = (await t.a.get('/api/v1/openapi.json')).body;
    for (const method of ['get', 'head']) expect(doc.paths['/api/v1/brief'][method].deprecated).toBe(true);
    expect(doc.paths['/api/v1/brief'].get.description).toMatch(
      /Deprecated\*\* since 2026-01-01; sunset 2099-06-30T10:00:00Z\. .*Brief.*See https:\/\/example\.com\/retire\/brief\./,
    );
    expect(doc.paths['/api/v1/markets'].get.deprecated).toBeUndefined();
    // Not enforced: no 410 to expect.
    expect(doc.paths['/api/v1/brief'].get.responses['410']).toBeUndefined();
    const b = (await t.b.get('/api/v1/openapi.json')).body;
    expect([b.paths['/api/v1/alerts'].get.deprecated, b.paths['/api/v1/brief'].get.deprecated, b.paths['/api/v1/markets'].get.deprecated]).toEqual([
      true,
      true,
      undefined,
    ]);
    for (const [agent, recorded] of [
      [t.a, answers[0]!],
      [t.b, answers[1]!],
    ] as const) {
      const verdict = await judge(agent, recorded);
      expect(verdict.problems).toEqual([]);
      expect(verdict.judged).toBeGreaterThan(2);
    }
  });
});

describe('declared and enforced (LEGACY_ENFORCE_SUNSET=1), the clock past the sunset', () => {
  const clock = new TestClock(midMinute());
  const sunset = new Date(clock.now() + HOUR_MS);
  let t: TestService;
  let pro: string;
  let proKeyId: string;
  beforeAll(async () => {
    t = await startTestService({
      clock,
      env: {
        LEGACY_ENFORCE_SUNSET: '1',
        LEGACY_DEPRECATIONS: declare({
          'A GET /api/v1/markets': { deprecated: '2026-01-01', sunset: sunset.toISOString(), link: BRIEF_PAGE },
          'B GET /api/v1/alerts': { deprecated: '2026-01-01', sunset: sunset.toISOString() },
        }),
      },
    });
    ({ key: pro, keyId: proKeyId } = await t.createKey('pro', 'pro'));
  });
  afterAll(() => t?.close());

  /** Units left in the binding window, as the answer says. */
  const remaining = (res: supertest.Response) => Number(res.headers['x-ratelimit-remaining']);

  it('before the sunset the route answers; from the sunset on, 410 gone in each envelope, with the headers, spending nothing', async () => {
    expect((await t.a.get('/api/v1/markets').set(bearer(pro))).status).toBe(200);
    expect((await t.b.get('/api/v1/alerts').set(bearer(pro))).status).toBe(200);
    clock.advance(HOUR_MS); // the sunset itself: gone from this instant

    const cases = [
      { agent: t.a, gone: '/api/v1/markets', other: '/api/v1/alerts', envelope: 'success', operation: 'MarketsPage' },
      { agent: t.b, gone: '/api/v1/alerts', other: '/api/v1/markets', envelope: 'ok', operation: 'LatestMovementAlerts' },
    ] as const;
    for (const { agent, gone, other, envelope, operation } of cases) {
      const before = remaining(await agent.get(other).set(bearer(pro)));
      expect(before).toBeGreaterThan(2);
      const refused = [await agent.get(gone).set(bearer(pro)), await agent.head(gone).set(bearer(pro)), await agent.get(`${gone}?limit=0`).set(bearer(pro))];
      for (const res of refused) {
        expect(res.status).toBe(410);
        expect(res.headers['x-ratelimit-remaining']).toBeUndefined();
        expect(res.headers['x-graphql-operation']).toBe(operation);
        expect(new Date(res.headers.sunset!).getTime()).toBe(Math.floor(sunset.getTime() / 1000) * 1000);
        expect(parseItem(res.headers.deprecation!)[0]).toEqual(new Date('2026-01-01T00:00:00Z'));
      }
      expect(refused[0]!.body).toEqual({
        [envelope]: false,
        error: {
          code: 410,
          type: 'gone',
          message: expect.stringContaining(`run the GraphQL operation ${operation} (/graphql/operations/${operation}.graphql)`),
        },
      });
      // Three refusals, and the next counted call has spent one unit since `before`: its own.
      expect(remaining(await agent.get(other).set(bearer(pro)))).toBe(before - 1);
    }
    // Nor are the 410s in the usage records: each gone route has its one call from before the sunset.
    await t.service.usage!.flush();
    const byRoute = await t.service.store.usage.report({ sinceDay: '2000-01-01', keyId: proKeyId }, 'route');
    const count = (route: string) => byRoute.find((g) => g.route === route)?.requests ?? 0;
    expect([count('A GET /api/v1/markets'), count('B GET /api/v1/alerts')]).toEqual([1, 1]);
  });

  it('the key is still checked first (401), and a route past its sunset is documented with its 410', async () => {
    expect((await t.a.get('/api/v1/markets')).status).toBe(401);
    const doc = (await t.b.get('/api/v1/openapi.json')).body;
    expect(doc.paths['/api/v1/alerts'].get.responses['410']).toEqual({ $ref: '#/components/responses/Gone' });
    expect(doc.paths['/api/v1/alerts'].get.description).toMatch(/after which it answers 410 Gone/);
    expect(doc.paths['/api/v1/markets'].get.responses['410']).toBeUndefined();
    const recorded = recordAnswers(t.b);
    await t.b.get('/api/v1/alerts').set(bearer(pro));
    expect((await judge(t.b, recorded)).problems).toEqual([]);
  });
});
