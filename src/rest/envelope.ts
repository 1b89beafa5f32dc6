/** The two envelopes of D5: `success` (variant A) and `ok` (variant B). */
import type { ServerResponse } from 'node:http';
import type { ApiError } from '../edge/errors.js';
import type { Variant } from '../domain/variant.js';

export function errorBody(variant: Variant, error: ApiError) {
  const detail = { code: error.status, type: error.type, message: error.message };
  return variant === 'A' ? { success: false, error: detail } : { ok: false, error: detail };
}

export function sendError(res: ServerResponse, variant: Variant, error: ApiError, head = false): void {
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  sendJson(res, error.status, Buffer.from(JSON.stringify(errorBody(variant, error))), head);
}

/** A JSON answer on plain node:http (the facade's hot path does without Express); HEAD gets the headers only. */
export function sendJson(res: ServerResponse, status: number, bytes: Buffer | undefined, head = false): void {
  res.statusCode = status;
  if (bytes) {
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', bytes.length);
  }
  res.end(head ? undefined : bytes);
}
