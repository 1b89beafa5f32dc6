/** Errors the edge answers with, and their D5 types. Thrown anywhere, rendered once per variant. */

export const ERROR_TYPES = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  413: 'payload_too_large',
  414: 'uri_too_long',
  429: 'rate_limit_exceeded',
  431: 'headers_too_large',
  500: 'internal_error',
  503: 'service_unavailable',
} as const;

export type ErrorStatus = keyof typeof ERROR_TYPES;

export class ApiError extends Error {
  constructor(
    readonly status: ErrorStatus,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get type(): string {
    return ERROR_TYPES[this.status];
  }
}

export const badRequest = (message: string) => new ApiError(400, message);
export const notFound = (message: string) => new ApiError(404, message);
