/** The two envelopes of D5: `success` (variant A) and `ok` (variant B). */
import type { ServerResponse } from 'node:http';
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
