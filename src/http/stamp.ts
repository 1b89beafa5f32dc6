/**
 * What every answer of a listener carries, whoever writes it (a handler, the error renderer, or an
 * answer written on the socket before any handler): a request id (the client's own when it is a
 * plain token, else a new one), the security headers, and a CSP that forbids everything for JSON.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { JSON_ONLY_CSP, SECURITY_HEADERS } from './security-headers.js';

/** The client's `X-Request-Id` when it is a plain token of at most 64 characters; else a new UUID. */
export function requestIdOf(req: Pick<IncomingMessage, 'headers'> | undefined): string {
  const header = req?.headers['x-request-id'];
  return typeof header === 'string' && /^[\w.-]{1,64}$/.test(header) ? header : randomUUID();
}

/** The headers every answer starts with; `html` pages set their own CSP (they load scripts). */
export function stampHeaders(req: Pick<IncomingMessage, 'headers'> | undefined, html = false): (readonly [string, string])[] {
  return [['X-Request-Id', requestIdOf(req)], ...SECURITY_HEADERS, ...(html ? [] : [['Content-Security-Policy', JSON_ONLY_CSP] as const])];
}
