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

/**
 * Why a write is refused as cross-site, or undefined. A browser that sends Sec-Fetch-Site is
 * judged by it alone (it also sends `Origin: null` where a referrer policy hides the origin); one
 * that does not is judged by Origin, and `null` (a sandboxed frame, a hidden origin) is refused.
 */
export function crossSiteReason(req: IncomingMessage, publicUrl: string | undefined): string | undefined {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin' || site === 'none' ? undefined : `Sec-Fetch-Site: ${site}`;
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== ownOrigin(req, publicUrl)) return `Origin: ${origin}`;
  return undefined;
}
