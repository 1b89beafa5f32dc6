/**
 * The catalogue's refusals in the edge's terms: a query that does not parse, validate or coerce is
 * the client's 400 with graphql-js's own errors; a persisted id the catalogue does not hold (or one
 * `enforce` does not trust) is PERSISTED_QUERY_NOT_FOUND, which Apollo Client's link answers by
 * sending the text, and which it never caches.
 */
import { ApiError } from '../edge/errors.js';
import { OperationRefusal } from '../graphql/catalogue/prepare.js';

export function refusalAsApiError<T>(found: T | OperationRefusal): T | ApiError {
  if (!(found instanceof OperationRefusal)) return found;
  if (found.code === 'PERSISTED_QUERY_NOT_FOUND') {
    return new ApiError(404, found.message, { 'Cache-Control': 'private, no-cache, must-revalidate' }, { code: found.code, errors: found.errors });
  }
  return new ApiError(400, found.message, {}, { code: 'BAD_USER_INPUT', errors: found.errors });
}
