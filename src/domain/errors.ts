/**
 * Errors of the domain, in its own words: the input is invalid, something does not exist, or the
 * account's plan does not allow it. Each is the one refusal (`ApiError`) whose status follows from
 * its kind, so every transport renders it as it renders any other refusal, and nothing translates
 * it on the way; domain code names the kind, never a status.
 */
import { ApiError, type ErrorStatus } from './refusal.js';

export type DomainErrorKind = 'invalid' | 'not_found' | 'forbidden';

const STATUS_OF_KIND: Record<DomainErrorKind, ErrorStatus> = { invalid: 400, not_found: 404, forbidden: 403 };

export class DomainError extends ApiError {
  readonly kind: DomainErrorKind;

  constructor(kind: DomainErrorKind, message: string) {
    super(STATUS_OF_KIND[kind], message);
    this.kind = kind;
    this.name = 'DomainError';
  }
}

export const invalid = (message: string) => new DomainError('invalid', message);
export const notFound = (message: string) => new DomainError('not_found', message);
export const forbidden = (message: string) => new DomainError('forbidden', message);
