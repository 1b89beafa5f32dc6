/**
 * Every state-changing request is refused when the browser says it comes from another site
 * (`Sec-Fetch-Site: cross-site` or `same-site`, or an `Origin` that is not the dashboard's own), and
 * must carry the CSRF token of its form. Old browsers send neither header; the token alone holds.
 */
import type { IncomingMessage } from 'node:http';

/** The dashboard's own origin: PORTAL_PUBLIC_URL's, else the Host the request came to. */
export function ownOrigin(req: IncomingMessage, publicUrl: string | undefined): string {
  if (publicUrl) return new URL(publicUrl).origin;
  return `http://${req.headers.host ?? 'localhost'}`;
}

/** Why a write is refused as cross-site, or undefined. */
export function crossSiteReason(req: IncomingMessage, publicUrl: string | undefined): string | undefined {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return `Sec-Fetch-Site: ${site}`;
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== ownOrigin(req, publicUrl)) return `Origin: ${origin}`;
  return undefined;
}
