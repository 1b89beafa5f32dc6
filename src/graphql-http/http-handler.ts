/**
 * /graphql on plain node:http. Apollo Server answers everything it owns: Sandbox on GET, CSRF
 * prevention, introspection, mutations, and every query that does not parse or validate. A POSTed
 * query that reads data and is already compiled (compiled-operations.ts) skips Express and Apollo's
 * per-request pipeline, whichever of the two GraphQL-over-HTTP media types the caller prefers
 * (`application/json`, or `application/graphql-response+json` as Apollo Client and graphql-request ask). It goes through the same edge (key, plan, quota, D12), the same compiled
 * resolvers and the same error formatter, so a client cannot tell which path answered.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ApolloServer, HeaderMap } from '@apollo/server';
import { getVariableValues, type GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import Negotiator from 'negotiator';
import getRawBody from 'raw-body';
import { presentedKey } from '../auth/credentials.js';
import type { Edge } from '../edge/edge.js';
import type { DegradedAnswers } from '../edge/degraded.js';
import { ApiError } from '../edge/errors.js';
import type { CompiledOperation, OperationCompiler } from './compiled-operations.js';
import type { GraphQLContext } from '../graphql/context.js';
import type { GraphQLServices } from '../graphql/services.js';
import { toGraphQLError } from '../edge/graphql-codes.js';
import { createLoaders } from '../graphql/loaders.js';

interface GraphQLHttpOptions {
  server: ApolloServer<GraphQLContext>;
  schema: GraphQLSchema;
  compiler: OperationCompiler;
  /** The listener's edge: its variant labels the metrics and refusals of /graphql there. */
  edge: Edge;
  services: GraphQLServices;
  formatError: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;
  /** Where a dependency's failure becomes a logged, counted 503. */
  degraded: DegradedAnswers;
  /** Counts which path answered each request. */
  requests?: { inc(labels: { path: 'compiled' | 'apollo' }): void };
  /** Largest accepted body; a larger one is refused with 413 before it is read whole. */
  maxBodyBytes: number;
}

/** The body of a POST that the fast path can answer: one operation, not a persisted query. */
interface PlainRequest {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

const isJson = (contentType: string | undefined) => {
  const type = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
};

/** The two media types a single GraphQL result is sent as (GraphQL over HTTP), in Apollo's order of preference. */
const RESULT_TYPES = ['application/json; charset=utf-8', 'application/graphql-response+json; charset=utf-8'];

/**
 * The media type the caller prefers among them, negotiated as Apollo does (no Accept: JSON);
 * undefined when it accepts neither, which Apollo answers with its 406.
 */
const negotiatedType = (accept: string | undefined): string | undefined =>
  accept ? new Negotiator({ headers: { accept } }).mediaType(RESULT_TYPES) : RESULT_TYPES[0];

function isPlainRequest(body: unknown): body is PlainRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const b = body as Record<string, unknown>;
  return (
    typeof b.query === 'string' &&
    // Clients send extensions of their own (Apollo Client: `clientLibrary`), which Apollo ignores too;
    // a persisted query (its hash, maybe without a text) is Apollo's to resolve.
    (b.extensions == null || (typeof b.extensions === 'object' && !Array.isArray(b.extensions) && !('persistedQuery' in b.extensions))) &&
    (b.variables == null || (typeof b.variables === 'object' && !Array.isArray(b.variables))) &&
    (b.operationName == null || typeof b.operationName === 'string')
  );
}

/** Reads a JSON body within the size limit; other content types are left to Apollo (CSRF prevention). */
async function readBody(req: IncomingMessage, limit: number): Promise<unknown> {
  if (req.method !== 'POST') return undefined;
  let text: string;
  try {
    text = await getRawBody(req, { limit, encoding: 'utf8' });
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status === 413) throw new ApiError(413, `request body too large (at most ${limit} bytes)`);
    throw new ApiError(400, 'unreadable request body');
  }
  if (!isJson(req.headers['content-type'])) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, 'malformed JSON body');
  }
}

/** The variables refused by graphql-js's own coercion, answered 400 with its exact messages, as Apollo does. */
class VariableErrors {
  constructor(readonly errors: readonly GraphQLError[]) {}
}

/** Thrown by the compiled path's route step: not a text it compiles, so Apollo answers it. */
const APOLLOS = Symbol('apollo answers this one');

export function createGraphQLHttpHandler(options: GraphQLHttpOptions) {
  const { server, edge, services } = options;

  /** The key comes from the Bearer header only (D12); a malformed header is a wrong key, not none. */
  const keyOf = (req: IncomingMessage): string | undefined =>
    presentedKey(req.headers.authorization, undefined, edge.variant) ?? (req.headers.authorization ? '' : undefined);

  const contextFor = (principal: GraphQLContext['principal']): GraphQLContext => ({
    principal,
    services,
    loaders: createLoaders(services),
    transport: 'graphql',
    responseHeaders: {},
  });

  /** A refusal of the edge as the GraphQL error Apollo would send, or undefined when it is not one (a bug). */
  const refusalAsApiError = (refusal: unknown): ApiError | undefined =>
    refusal instanceof ApiError ? refusal : options.degraded.answerFor('graphql', refusal);

  /** Apollo's context: the operation is admitted by the plugin once Apollo has resolved it. */
  function apolloContext(req: IncomingMessage): GraphQLContext {
    const context = contextFor(null);
    context.admitOperation = async (analysis, operationContext) => {
      const outcome = await edge.admit({
        key: keyOf(req),
        mayBeOpen: true,
        route: () => analysis,
        // Introspection alone needs no key, so Sandbox can load the schema (off in production).
        access: (a) => ({ requirements: a.requirements, what: 'this operation', open: !a.readsData }),
        parameters: () => undefined,
      });
      Object.assign(operationContext.responseHeaders, outcome.headers);
      if (!outcome.admitted) {
        const error = refusalAsApiError(outcome.refusal);
        throw error ? toGraphQLError(error) : outcome.refusal;
      }
      operationContext.principal = outcome.principal;
    };
    return context;
  }

  /** As Apollo formats an error: a code always, `extensions.http` taken out, then our formatter. */
  function format(error: GraphQLError, code?: string): GraphQLFormattedError {
    const json = error.toJSON();
    const { http: _http, ...extensions } = json.extensions ?? {};
    const formatted = { ...json, extensions: { ...extensions, code: code ?? extensions.code ?? 'INTERNAL_SERVER_ERROR' } };
    return options.formatError(formatted, error);
  }

  /** The HTTP status an error asks for (`extensions.http.status`), as Apollo reads it. */
  const statusOf = (errors: readonly GraphQLError[]) =>
    errors.map((e) => (e.extensions?.http as { status?: number } | undefined)?.status).find((s) => typeof s === 'number');

  function send(res: ServerResponse, type: string, status: number, payload: unknown, headers: Record<string, string>): void {
    const bytes = Buffer.from(JSON.stringify(payload));
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.statusCode = status;
    res.setHeader('Content-Type', type);
    res.setHeader('Content-Length', bytes.length);
    res.end(bytes);
  }

  /**
   * The fast path: the edge admits the request with the compiled operation as its route and the
   * variables as its parameters. False when the text is not one it compiles (Apollo answers it).
   */
  async function runCompiled(req: IncomingMessage, res: ServerResponse, type: string, body: PlainRequest): Promise<boolean> {
    const variables = body.variables ?? {};
    const outcome = await edge.admit({
      key: keyOf(req),
      route: () =>
        options.compiler.get(body.query, body.operationName ?? undefined) ??
        (() => {
          throw APOLLOS;
        })(),
      access: (op: CompiledOperation) => ({ requirements: op.analysis.requirements, what: 'this operation' }),
      parameters: (op) => {
        // Checked by graphql-js first, so a bad variable gets Apollo's 400 and its exact message.
        const coerced = op.operation.variableDefinitions?.length ? getVariableValues(options.schema, op.operation.variableDefinitions, variables) : undefined;
        if (coerced?.errors) throw new VariableErrors(coerced.errors);
        return variables;
      },
    });
    if (!outcome.admitted) {
      if (outcome.refusal === APOLLOS) return false;
      if (outcome.refusal instanceof VariableErrors) {
        send(res, type, 400, { errors: outcome.refusal.errors.map((e) => format(e, 'BAD_USER_INPUT')) }, outcome.headers);
        return true;
      }
      const error = refusalAsApiError(outcome.refusal);
      if (!error) throw outcome.refusal;
      send(res, type, error.status, { errors: [format(toGraphQLError(error))] }, outcome.headers);
      return true;
    }
    const context = contextFor(outcome.principal);
    Object.assign(context.responseHeaders, outcome.headers);
    const result = await outcome.target.query.query(undefined, context, outcome.params);
    if (!result.errors?.length) send(res, type, 200, result, context.responseHeaders);
    // A field refused by its own limit asks for 429, which Apollo would answer with too.
    else send(res, type, statusOf(result.errors) ?? 200, { ...result, errors: result.errors.map((e) => format(e)) }, context.responseHeaders);
    return true;
  }

  /** Apollo's own answer, as its Express integration would give it. */
  async function runApollo(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const headers = new HeaderMap();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const answer = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: req.method!.toUpperCase(), headers, search: q < 0 ? '' : url.slice(q), body },
      context: async () => apolloContext(req),
    });
    for (const [name, value] of answer.headers) res.setHeader(name, value);
    res.statusCode = answer.status ?? 200;
    if (answer.body.kind === 'complete') {
      res.end(answer.body.string);
      return;
    }
    for await (const chunk of answer.body.asyncIterator) res.write(chunk);
    res.end();
  }

  /** Throws an ApiError for an unreadable body; the listener answers it in the variant's envelope. */
  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body: unknown;
    try {
      body = await readBody(req, options.maxBodyBytes);
    } catch (error) {
      // The rest of a refused body is never read: the connection cannot carry another request.
      res.setHeader('Connection', 'close');
      throw error;
    }
    // Compiling costs about a millisecond, so only a caller with a working key gets a text compiled;
    // anyone else (no key, a bad one) is Apollo's, which answers them as before.
    // Compiling costs about a millisecond, so only a caller who sends a key gets a text compiled;
    // the edge refuses a wrong key before the text is looked at.
    const type = negotiatedType(req.headers.accept);
    if (req.method === 'POST' && type && isPlainRequest(body) && req.headers.authorization) {
      if (await runCompiled(req, res, type, body)) {
        options.requests?.inc({ path: 'compiled' });
        return;
      }
    }
    options.requests?.inc({ path: 'apollo' });
    return runApollo(req, res, body);
  };
}
