/** One mapping between the edge's HTTP errors and GraphQL error codes (D12). */
import { GraphQLError } from 'graphql';
import { DomainError } from '../domain/errors.js';
import { ApiError, apiErrorFromDomain, type ErrorStatus } from './errors.js';

const CODE_BY_STATUS: Record<number, string> = {
  400: 'BAD_USER_INPUT',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
  500: 'INTERNAL_SERVER_ERROR',
};

const STATUS_BY_CODE: Record<string, ErrorStatus> = Object.fromEntries(
  Object.entries(CODE_BY_STATUS).map(([status, code]) => [code, Number(status) as ErrorStatus]),
);

export function graphqlCodeFor(status: number): string {
  return CODE_BY_STATUS[status] ?? 'INTERNAL_SERVER_ERROR';
}

/** A GraphQL error carrying the HTTP status Apollo should answer with. */
export function toGraphQLError(error: ApiError): GraphQLError {
  return new GraphQLError(error.message, {
    originalError: error,
    extensions: { code: graphqlCodeFor(error.status), http: { status: error.status } },
  });
}

/** The ApiError behind a GraphQL execution error: the original one, or one derived from its code. */
export function apiErrorOf(error: GraphQLError): ApiError {
  if (error.originalError instanceof ApiError) return error.originalError;
  if (error.originalError instanceof DomainError) return apiErrorFromDomain(error.originalError);
  const code = error.extensions?.code;
  const status = typeof code === 'string' ? STATUS_BY_CODE[code] : undefined;
  if (status && status !== 500) return new ApiError(status, error.message);
  return new ApiError(500, 'internal error');
}
