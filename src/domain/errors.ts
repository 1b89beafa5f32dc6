/**
 * Errors of the domain, in its own words: the input is invalid, something does not exist, or the
 * account's plan does not allow it. Transports map the kind to their own terms at their edge
 * (an HTTP status and envelope, a GraphQL code, a CLI message); domain code never speaks HTTP.
 */
export type DomainErrorKind = 'invalid' | 'not_found' | 'forbidden';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalid = (message: string) => new DomainError('invalid', message);
export const notFound = (message: string) => new DomainError('not_found', message);
export const forbidden = (message: string) => new DomainError('forbidden', message);
