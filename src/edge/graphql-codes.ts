/** One mapping between the edge's HTTP errors and GraphQL error codes (D12). */
import { GraphQLError } from 'graphql';
import { ApiError, type ErrorStatus } from '../domain/refusal.js';

const CODE_BY_STATUS: Record<number, string> = {
  400: 'BAD_USER_INPUT',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
  500: 'INTERNAL_SERVER_ERROR',
};

/** Our codes, and the ones graphql-js and Apollo give a request they refuse (the client's mistake: D12 says BAD_USER_INPUT). */
const STATUS_BY_CODE: Record<string, ErrorStatus> = {
  ...Object.fromEntries(Object.entries(CODE_BY_STATUS).map(([status, code]) => [code, Number(status) as ErrorStatus])),
  GRAPHQL_PARSE_FAILED: 400,
  GRAPHQL_VALIDATION_FAILED: 400,
  BAD_REQUEST: 400,
  OPERATION_RESOLUTION_FAILURE: 400,
  PERSISTED_QUERY_NOT_SUPPORTED: 400,
  PERSISTED_QUERY_NOT_FOUND: 404,
};

/** Codes a client acts on, kept as they are rather than said as their status's (Apollo Client's link retries on this one). */
export const KEPT_CODES = new Set(['PERSISTED_QUERY_NOT_FOUND']);

export function graphqlCodeFor(status: number): string {
  return CODE_BY_STATUS[status] ?? 'INTERNAL_SERVER_ERROR';
}

/** The status a GraphQL error's code stands for, undefined for an unknown code. */
export const statusOfCode = (code: unknown): ErrorStatus | undefined => (typeof code === 'string' ? STATUS_BY_CODE[code] : undefined);

/**
 * A refusal as the GraphQL errors a client sees: graphql-js's own when it has them (a query that
 * does not validate, variables that do not coerce), else one error with the refusal's message. The
 * code is the refusal's own (PERSISTED_QUERY_NOT_FOUND), else the one of its status.
 */
export function toGraphQLErrors(error: ApiError): GraphQLError[] {
  const code = error.graphql?.code ?? graphqlCodeFor(error.status);
  const sources = error.graphql?.errors?.length ? error.graphql.errors : [error];
  return sources.map(
    (source) =>
      new GraphQLError(source.message, {
        nodes: source instanceof GraphQLError ? source.nodes : undefined,
        source: source instanceof GraphQLError ? source.source : undefined,
        positions: source instanceof GraphQLError ? source.positions : undefined,
        originalError: error,
        extensions: { code },
      }),
  );
}

/**
 * The status of an answer whose fields raised these errors: the first refusal thrown to answer for
 * the whole request (a field over its own limit), else none (a 200 with partial data).
 */
export function answerStatusOf(errors: readonly GraphQLError[]): ErrorStatus | undefined {
  for (const error of errors) {
    const refusal = error.originalError;
    if (refusal instanceof ApiError && refusal.graphql?.statusOfAnswer) return refusal.status;
  }
  return undefined;
}
