/**
 * The one refusal: what a client is told and how (a status and its D5 type, a message, headers, and
 * for GraphQL a code and graphql-js's own errors). The catalogue, the parameter checks, the edge,
 * the dashboard, the listener and a field over its own limit return or throw it, and a domain error
 * is one (errors.ts); whatever else is thrown (a dependency's failure, a library's error) becomes
 * one through the edge's `classify`. Each transport renders it in its own shape.
 */

export const ERROR_TYPES = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  408: 'request_timeout',
  410: 'gone',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  429: 'rate_limit_exceeded',
  431: 'headers_too_large',
  500: 'internal_error',
  503: 'service_unavailable',
} as const;

export type ErrorStatus = keyof typeof ERROR_TYPES;

/** What GraphQL transports say beyond the status: a code of their own, and graphql-js's errors (messages, locations). */
export interface GraphQLDetail {
  code?: string;
  errors?: readonly Error[];
  /**
   * Thrown by a field, the whole answer takes the refusal's status (a field over its own limit:
   * 429), as Apollo answers; a field's other errors leave a 200 with partial data.
   */
  statusOfAnswer?: boolean;
}

export class ApiError extends Error {
  readonly status: ErrorStatus;
  readonly headers: Record<string, string>;
  readonly graphql: GraphQLDetail | undefined;

  constructor(status: ErrorStatus, message: string, headers: Record<string, string> = {}, graphql?: GraphQLDetail) {
    super(message);
    this.status = status;
    this.headers = headers;
    this.graphql = graphql;
    this.name = 'ApiError';
  }

  get type(): string {
    return ERROR_TYPES[this.status];
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
