/** LEGACY_DEPRECATIONS as loadConfig reads it: what is accepted, and a message naming the entry for what is not. */
import { parseItem } from 'structured-headers';
import { ConfigError, loadConfig } from '../../../src/config/config.js';
import { deprecationHeaders, sunsetRefusal } from '../../../src/rest/deprecations.js';

const load = (declared: unknown) => loadConfig({ LEGACY_DEPRECATIONS: typeof declared === 'string' ? declared : JSON.stringify(declared) });

describe('LEGACY_DEPRECATIONS in the environment', () => {
  it('is read per route id: dates (a date is midnight UTC, a zone is honoured, to the second), an optional sunset and https page', () => {
    const config = load({
      'A GET /api/v1/brief': { deprecated: '2026-01-01', sunset: '2026-06-30T12:00:00.900+02:00', link: 'https://example.com/retire?x=<y>' },
      'B GET /api/v1/markets': { deprecated: '2026-02-01T00:00:00Z' },
    });
    expect(config.legacy).toEqual({
      enforceSunset: false,
      deprecations: {
        'A GET /api/v1/brief': {
          deprecated: new Date('2026-01-01T00:00:00Z'),
          sunset: new Date('2026-06-30T10:00:00Z'),
          link: 'https://example.com/retire?x=%3Cy%3E',
        },
        'B GET /api/v1/markets': { deprecated: new Date('2026-02-01T00:00:00Z') },
      },
    });
    expect(loadConfig({}).legacy).toEqual({ deprecations: {}, enforceSunset: false });
    expect(loadConfig({ LEGACY_ENFORCE_SUNSET: '1' }).legacy.enforceSunset).toBe(true);
  });

  it.each([
    ['bad JSON', '{"A GET /api/v1/brief": ', /LEGACY_DEPRECATIONS: not valid JSON/],
    ['not an object', '[]', /LEGACY_DEPRECATIONS: .*expected record/],
    [
      'an unknown route',
      { 'A GET /api/v1/brif': { deprecated: '2026-01-01' } },
      /LEGACY_DEPRECATIONS\["A GET \/api\/v1\/brif"\]: no such route; routes are "A GET \/api\/v1\/markets", .*"B GET \/api\/v1\/alerts"/,
    ],
    [
      'a route of the other variant',
      { 'B GET /api/v1/brief?x': { deprecated: '2026-01-01' } },
      /LEGACY_DEPRECATIONS\["B GET \/api\/v1\/brief\?x"\]: no such route/,
    ],
    ['no deprecated date', { 'A GET /api/v1/brief': { sunset: '2026-01-01' } }, /LEGACY_DEPRECATIONS\["A GET \/api\/v1\/brief"\]\.deprecated: /],
    [
      'a date-time without a zone',
      { 'A GET /api/v1/brief': { deprecated: '2026-01-01T00:00:00' } },
      /\["A GET \/api\/v1\/brief"\]\.deprecated: an ISO 8601 date/,
    ],
    ['a date that is not one', { 'B GET /api/v1/alerts': { deprecated: '2026-02-30' } }, /\["B GET \/api\/v1\/alerts"\]\.deprecated: an ISO 8601 date/],
    [
      'a sunset before deprecated',
      { 'A GET /api/v1/markets': { deprecated: '2026-03-01', sunset: '2026-02-28T23:59:59Z' } },
      /LEGACY_DEPRECATIONS\["A GET \/api\/v1\/markets"\]\.sunset: sunset is before deprecated/,
    ],
    [
      'a page that is not https',
      { 'A GET /api/v1/markets': { deprecated: '2026-03-01', link: 'http://example.com' } },
      /\["A GET \/api\/v1\/markets"\]\.link: an https:\/\/ URL/,
    ],
    [
      'a misspelt field',
      { 'A GET /api/v1/markets': { deprecated: '2026-03-01', sunet: '2027-01-01' } },
      /\["A GET \/api\/v1\/markets"\]: Unrecognized key: "sunet"/,
    ],
  ])('refuses %s with a message naming the entry', (_name, declared, message) => {
    expect(() => load(declared)).toThrow(ConfigError);
    expect(() => load(declared)).toThrow(message);
  });

  it('refuses a LEGACY_ENFORCE_SUNSET that is not 0 or 1', () => {
    expect(() => loadConfig({ LEGACY_ENFORCE_SUNSET: 'yes' })).toThrow(/LEGACY_ENFORCE_SUNSET/);
  });
});

describe('what a declared route answers with', () => {
  const declared = { deprecated: new Date('2026-01-01T00:00:00Z'), sunset: new Date('2026-07-01T00:00:00Z'), link: 'https://example.com/retire' };

  it('Deprecation is a Structured Field Date, Sunset an HTTP-date, Link names the page for both rels and the operation as the successor', () => {
    const headers = deprecationHeaders(declared, '/graphql/operations/Brief.graphql');
    expect(headers).toEqual({
      Deprecation: '@1767225600',
      Sunset: 'Wed, 01 Jul 2026 00:00:00 GMT',
      Link: '</graphql/operations/Brief.graphql>; rel="successor-version"; type="text/plain", <https://example.com/retire>; rel="deprecation"; type="text/html", <https://example.com/retire>; rel="sunset"; type="text/html"',
    });
    expect(parseItem(headers.Deprecation!)[0]).toEqual(declared.deprecated);
  });

  it('refuses with 410 from the sunset on, only when enforced', () => {
    const operation = { name: 'Brief', href: '/graphql/operations/Brief.graphql' };
    const enforced = sunsetRefusal(declared, true, 'GET /api/v1/brief', operation)!;
    expect(enforced(declared.sunset.getTime() - 1)).toBeUndefined();
    expect(enforced(declared.sunset.getTime())).toMatchObject({
      status: 410,
      type: 'gone',
      message: expect.stringMatching(/Brief .*see https:\/\/example\.com\/retire$/),
    });
    // Not enforced, or no sunset declared: nothing to check on any request.
    expect(sunsetRefusal(declared, false, 'GET /api/v1/brief', operation)).toBeUndefined();
    expect(sunsetRefusal({ deprecated: declared.deprecated }, true, 'GET /api/v1/brief', operation)).toBeUndefined();
  });
});
