/**
 * What an error means to a client, decided once for every transport: an ApiError (a domain error
 * among them) is itself, a dependency's failure (store, Redis, a full disk) is a logged,
 * counted 503, and anything else is our bug: logged with its detail, answered as a bare 500.
 * GraphQL errors are judged by what they wrap, or by the code graphql-js or Apollo gave them.
 */
import { GraphQLError } from 'graphql';
import type { Logger } from 'pino';
import type { DegradedAnswers } from './degraded.js';
import { ApiError, ERROR_TYPES, type ErrorStatus } from '../domain/refusal.js';
import { KEPT_CODES, statusOfCode } from './graphql-codes.js';

/**
 * raw-body's failures to read a request body that are the client's (http-errors, named by their
 * `type`). Its other two, a stream read twice or with an encoding set, are our bugs: a 500, logged.
 */
const BODY_READ_TYPES = new Set(['entity.too.large', 'request.aborted', 'request.size.invalid', 'encoding.unsupported']);
/** GraphQL's shape says a body it could not read is the client's mistake (Apollo's code); the other transports ignore it. */
const CLIENT_MISTAKE = { code: 'BAD_USER_INPUT' } as const;

/** A body too large (413, naming the limit) or one that could not be read (400). */
function bodyRefusal(error: unknown): ApiError | undefined {
  const read = error as { type?: unknown; limit?: unknown } | null;
  if (typeof read?.type !== 'string' || !BODY_READ_TYPES.has(read.type)) return undefined;
  if (read.type === 'entity.too.large') return new ApiError(413, `request body too large (at most ${read.limit} bytes)`, {}, CLIENT_MISTAKE);
  return new ApiError(400, 'unreadable request body', {}, CLIENT_MISTAKE);
}

/** `where` names the path for the log and the degraded-answers counter (`rest`, `graphql`, `subscription`, `http`). */
export type Classify = (where: string, error: unknown) => ApiError;

export function createClassifier(degraded: DegradedAnswers, logger: Logger): Classify {
  const classify: Classify = (where, error) => {
    if (error instanceof ApiError) return error;
    if (error instanceof GraphQLError) {
      // A code the error already carries decides (Apollo's UserInputError wraps graphql-js's error);
      // else what it wraps does (a resolver's domain error, a dependency's failure).
      const code = error.extensions?.code;
      const status = statusOfCode(code);
      if (status !== undefined && status < 500)
        return new ApiError(status, error.message, {}, KEPT_CODES.has(code as string) ? { code: code as string } : undefined);
      if (error.originalError) return classify(where, error.originalError);
      // Apollo's refusal of a request itself (no code, a 4xx, before any resolver: no path).
      const http = (error.extensions?.http as { status?: unknown } | undefined)?.status;
      if (typeof http === 'number' && http >= 400 && http < 500 && error.path === undefined) return new ApiError(400, error.message);
    }
    const body = bodyRefusal(error);
    if (body) return body;
    // A library's own 4xx (http-errors, as Express's static files raise them): the client's, said plainly.
    const status = (error as { status?: unknown; expose?: unknown } | null)?.status;
    if (typeof status === 'number' && status >= 400 && status < 500 && (error as { expose?: unknown }).expose === true) {
      return new ApiError(status in ERROR_TYPES ? (status as ErrorStatus) : 400, status === 404 ? 'not found' : 'bad request');
    }
    const unavailable = degraded.answerFor(where, error);
    if (unavailable) return unavailable;
    logger.error({ err: error, where }, 'internal error');
    return new ApiError(500, 'internal error');
  };
  return classify;
}
