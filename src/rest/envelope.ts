/** The two envelopes of D5: `success` (variant A) and `ok` (variant B), and how a JSON answer is sent. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { matchesEtag } from '../graphql/answers/kept-answers.js';
import type { ApiError } from '../domain/refusal.js';
import type { Variant } from '../domain/variant.js';

export function errorBody(variant: Variant, error: ApiError) {
  const detail = { code: error.status, type: error.type, message: error.message };
  return variant === 'A' ? { success: false, error: detail } : { ok: false, error: detail };
}

export function sendError(res: ServerResponse, variant: Variant, error: ApiError): void {
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  sendJson(res, error.status, Buffer.from(JSON.stringify(errorBody(variant, error))));
}

/**
 * A JSON answer on plain node:http (the facade's hot path does without Express). A HEAD gets the
 * same headers, Content-Length included, and no body: node's response drops a HEAD's body itself.
 */
export function sendJson(res: ServerResponse, status: number, bytes: Buffer | undefined): void {
  res.statusCode = status;
  if (bytes) {
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', bytes.length);
  }
  res.end(bytes);
}

/**
 * A kept answer: its ETag and how long a client may reuse it (the data's refresh rate), and a 304
 * without the body for a client that holds it already.
 */
export function sendKept(req: IncomingMessage, res: ServerResponse, kept: { bytes: Buffer; etag: string }, maxAgeSeconds: number): void {
  res.setHeader('ETag', kept.etag);
  res.setHeader('Cache-Control', `private, max-age=${maxAgeSeconds}`);
  if (matchesEtag(req.headers['if-none-match'], kept.etag)) sendJson(res, 304, undefined);
  else sendJson(res, 200, kept.bytes);
}
