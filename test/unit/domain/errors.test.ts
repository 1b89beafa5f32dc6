/** A domain error is the one refusal: its kind decides its status, and transports render it as any other. */
import { DomainError, forbidden, invalid, notFound } from '../../../src/domain/errors.js';
import { ApiError } from '../../../src/domain/refusal.js';

it.each([
  ['invalid', invalid, 400, 'bad_request'],
  ['not_found', notFound, 404, 'not_found'],
  ['forbidden', forbidden, 403, 'forbidden'],
] as const)('%s is an ApiError of status %i', (kind, make, status, type) => {
  const error = make('what was wrong');
  expect(error).toBeInstanceOf(ApiError);
  expect(error).toBeInstanceOf(DomainError);
  expect(error.kind).toBe(kind);
  expect([error.status, error.type, error.message, error.headers, error.graphql]).toEqual([status, type, 'what was wrong', {}, undefined]);
});
