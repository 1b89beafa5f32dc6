/**
 * The dashboard's cookies: the session id, and a token for the forms shown before sign-in (double
 * submit). HttpOnly, SameSite=Strict, Path=/account; Secure and the `__Host-`-like strictness when
 * PORTAL_PUBLIC_URL is https.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse, serialize } from 'cookie';

export const SESSION_COOKIE = 'mgw_session';
export const FORM_COOKIE = 'mgw_form';

export function readCookie(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  return header ? parse(header)[name] : undefined;
}

export function setCookie(res: ServerResponse, name: string, value: string, options: { secure: boolean; maxAgeSeconds?: number }): void {
  const cookie = serialize(name, value, {
    httpOnly: true,
    sameSite: 'strict',
    secure: options.secure,
    path: '/account',
    ...(options.maxAgeSeconds !== undefined ? { maxAge: options.maxAgeSeconds } : {}),
  });
  const existing = res.getHeader('Set-Cookie');
  res.setHeader('Set-Cookie', [...(Array.isArray(existing) ? existing : existing ? [String(existing)] : []), cookie]);
}

export const clearCookie = (res: ServerResponse, name: string, secure: boolean) => setCookie(res, name, '', { secure, maxAgeSeconds: 0 });
