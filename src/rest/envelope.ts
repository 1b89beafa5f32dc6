/** The two envelopes of D5: `success` (variant A) and `ok` (variant B). */
import type { Response } from 'express';
import type { ApiError } from '../http/errors.js';
import type { Variant } from './route-table.js';

export function errorBody(variant: Variant, error: ApiError) {
  const detail = { code: error.status, type: error.type, message: error.message };
  return variant === 'A' ? { success: false, error: detail } : { ok: false, error: detail };
}

export function sendError(res: Response, variant: Variant, error: ApiError): void {
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  res.status(error.status).json(errorBody(variant, error));
}
