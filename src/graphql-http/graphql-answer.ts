/**
 * How /graphql's own answers are written (the compiled path's, and its refusals): errors formatted as
 * Apollo formats them, then by the one formatter; the status a field's refusal gives the answer; a GET's answer
 * revalidated by its ETag like the REST routes'.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ExecutionResult, GraphQLError, GraphQLFormattedError } from 'graphql';
import type { ApiError } from '../domain/refusal.js';
import { answerStatusOf, toGraphQLErrors } from '../edge/graphql-codes.js';
import { etagOf, matchesEtag } from '../graphql/answers/kept-answers.js';

export type FormatError = (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;

export function createGraphQLAnswers(formatError: FormatError) {
  /** As Apollo formats an error: a code always, then the one formatter. */
  function format(error: GraphQLError): GraphQLFormattedError {
    const json = error.toJSON();
    return formatError({ ...json, extensions: { ...json.extensions, code: json.extensions?.code ?? 'INTERNAL_SERVER_ERROR' } }, error);
  }

  function send(req: IncomingMessage, res: ServerResponse, type: string, status: number, payload: unknown, headers: Record<string, string>): void {
    const bytes = Buffer.from(JSON.stringify(payload));
    // A GET (a persisted document by id) is revalidated like the REST routes: a strong ETag, 304 when it still holds.
    const etag = req.method === 'GET' && status === 200 ? etagOf(bytes) : undefined;
    sendBytes(req, res, type, status, bytes, headers, etag);
  }

  function sendBytes(
    req: IncomingMessage,
    res: ServerResponse,
    type: string,
    status: number,
    bytes: Buffer,
    headers: Record<string, string>,
    etag?: string,
  ): void {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.setHeader('Content-Type', type);
    if (etag) {
      res.setHeader('ETag', etag);
      res.setHeader('Cache-Control', 'private, no-cache');
      if (matchesEtag(req.headers['if-none-match'], etag)) {
        res.statusCode = 304;
        res.end();
        return;
      }
    }
    res.statusCode = status;
    res.setHeader('Content-Length', bytes.length);
    res.end(bytes);
  }

  /** A result with errors: a field refused by its own limit asks for 429, which Apollo would answer with too. */
  function sendErrors(req: IncomingMessage, res: ServerResponse, type: string, result: ExecutionResult, headers: Record<string, string>): void {
    const errors = result.errors!;
    send(req, res, type, answerStatusOf(errors) ?? 200, { ...result, errors: errors.map(format) }, headers);
  }

  /** A refusal, as GraphQL errors. */
  function refuse(req: IncomingMessage, res: ServerResponse, type: string, refusal: ApiError, headers: Record<string, string>): void {
    send(req, res, type, refusal.status, { errors: toGraphQLErrors(refusal).map(format) }, headers);
  }

  return { format, send, sendBytes, sendErrors, refuse };
}

export type GraphQLAnswers = ReturnType<typeof createGraphQLAnswers>;
