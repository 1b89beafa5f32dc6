/**
 * The dashboard's cross-site check for writes (src/dashboard/cross-site.ts): Sec-Fetch-Site decides
 * where a browser sends it; otherwise Origin must be the dashboard's own (PORTAL_PUBLIC_URL's, else
 * the Host the request came to); a request with neither is left to the form token.
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { crossSiteReason, ownOrigin } from '../../../src/dashboard/cross-site.js';

const request = (headers: IncomingHttpHeaders) => ({ headers }) as IncomingMessage;
const PUBLIC = 'https://dashboard.example.com/account';

describe('Sec-Fetch-Site, where the browser sends it, decides alone', () => {
  it.each(['same-origin', 'none'])('%s is our own site (a typed URL or a bookmark is `none`)', (site) => {
    // Even with an Origin that would be refused: a referrer policy may hide it as `null`.
    expect(crossSiteReason(request({ 'sec-fetch-site': site, origin: 'null' }), PUBLIC)).toBeUndefined();
    expect(crossSiteReason(request({ 'sec-fetch-site': site, origin: 'https://elsewhere.example' }), PUBLIC)).toBeUndefined();
  });

  it.each(['cross-site', 'same-site', 'something-new'])('%s is refused, naming the header, whatever Origin says', (site) => {
    expect(crossSiteReason(request({ 'sec-fetch-site': site, origin: 'https://dashboard.example.com' }), PUBLIC)).toBe(`Sec-Fetch-Site: ${site}`);
  });
});

describe('without Sec-Fetch-Site, Origin decides', () => {
  it("admits the dashboard's own origin: PORTAL_PUBLIC_URL's, path left out", () => {
    expect(crossSiteReason(request({ origin: 'https://dashboard.example.com', host: 'internal:8080' }), PUBLIC)).toBeUndefined();
  });

  it('refuses another origin, the same host over another scheme or port, and `null`', () => {
    for (const origin of ['https://evil.example', 'http://dashboard.example.com', 'https://dashboard.example.com:8443', 'null']) {
      expect(crossSiteReason(request({ origin, host: 'dashboard.example.com' }), PUBLIC)).toBe(`Origin: ${origin}`);
    }
  });

  it('without PORTAL_PUBLIC_URL, the own origin is http:// and the Host the request came to', () => {
    expect(crossSiteReason(request({ origin: 'http://gateway.test:4000', host: 'gateway.test:4000' }), undefined)).toBeUndefined();
    expect(crossSiteReason(request({ origin: 'http://gateway.test:4001', host: 'gateway.test:4000' }), undefined)).toBe('Origin: http://gateway.test:4001');
    expect(crossSiteReason(request({ origin: 'https://gateway.test:4000', host: 'gateway.test:4000' }), undefined)).toBe('Origin: https://gateway.test:4000');
  });

  it('leaves a request with neither header to the form token (old browsers send none)', () => {
    expect(crossSiteReason(request({ host: 'gateway.test' }), undefined)).toBeUndefined();
    expect(crossSiteReason(request({}), PUBLIC)).toBeUndefined();
  });
});

describe('ownOrigin', () => {
  it("is PORTAL_PUBLIC_URL's origin when set, whatever the Host", () => {
    expect(ownOrigin(request({ host: 'internal:8080' }), PUBLIC)).toBe('https://dashboard.example.com');
    expect(ownOrigin(request({ host: 'internal:8080' }), 'http://dash.example:9000/x/y?z=1')).toBe('http://dash.example:9000');
  });

  it('is http:// and the Host header otherwise, localhost without one', () => {
    expect(ownOrigin(request({ host: 'gateway.test:4000' }), undefined)).toBe('http://gateway.test:4000');
    expect(ownOrigin(request({}), undefined)).toBe('http://localhost');
  });
});
