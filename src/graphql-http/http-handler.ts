/**
 * /graphql on plain node:http. Every request that names an operation (its text, an APQ hash, a
 * `documentId`; POST, or a GET a browser cannot forge) finds it in the catalogue and is admitted by
 * the edge (key, plan, quota, variables) before anything runs. A query that reads data runs here,
 * compiled; what graphql-jit does not run (mutations, introspection) is handed to Apollo with the
 * catalogue's document, so Apollo neither parses nor validates. Apollo alone answers what names no
 * operation: Sandbox on GET, CSRF prevention, a body that is not a GraphQL request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ApolloServer, HeaderMap } from '@apollo/server';
import type { ExecutionResult, GraphQLError, GraphQLFormattedError } from 'graphql';
import { LRUCache } from 'lru-cache';
import Negotiator from 'negotiator';
import getRawBody from 'raw-body';
import type { Principal } from '../auth/authenticator.js';
import { misplacedKey, presentedKey } from '../auth/api-key.js';
import type { Admitted, Edge } from '../edge/edge.js';
import { ApiError } from '../domain/refusal.js';
import { jsonTextWithinDepth, tooDeepJson } from '../edge/json-depth.js';
import { toGraphQLErrors } from '../edge/graphql-codes.js';
import type { OperationCatalogue } from '../graphql/catalogue/catalogue.js';
import type { PreparedOperation } from '../graphql/catalogue/prepare.js';
import type { GraphQLContext } from '../graphql/context.js';
import { type createResponseCache, etagOf, matchesEtag } from '../graphql/answers/kept-answers.js';
import { graphqlRequestOf, type GraphQLRequest } from './graphql-request.js';

interface GraphQLHttpOptions {
  server: ApolloServer<GraphQLContext>;
  catalogue: OperationCatalogue;
  /** The listener's edge: its variant labels the metrics and refusals of /graphql there. */
  edge: Edge;
  formatError: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;
  /** Counts which path answered each request: executed compiled, from the cache, or by Apollo. */
  requests?: { inc(labels: { path: 'compiled' | 'cached' | 'apollo' }): void };
  /** The kept answers (shared by the listeners: the versions say which data they were computed from). */
  answers: ReturnType<typeof createResponseCache>;
  /** Largest accepted body; a larger one is refused with 413 before it is read whole. */
  maxBodyBytes: number;
}

const isJson = (contentType: string | undefined) => {
  const type = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
};

/** The two media types a single GraphQL result is sent as (GraphQL over HTTP), in Apollo's order of preference. */
const RESULT_TYPES = ['application/json; charset=utf-8', 'application/graphql-response+json; charset=utf-8'];

const NOT_ACCEPTABLE = "An 'accept' header was provided for this request which does not accept application/json or application/graphql-response+json";

/** Clients send one Accept header each, over and over: each negotiated once (a few hundred distinct at most are kept). */
const negotiated = new LRUCache<string, { type: string | undefined }>({ max: 256 });

/**
 * The media type the caller prefers among them, negotiated as Apollo does (no Accept: JSON);
 * undefined when it accepts neither, which Apollo answers with its 406.
 */
function negotiatedType(accept: string | undefined): string | undefined {
  if (!accept) return RESULT_TYPES[0];
  let found = negotiated.get(accept);
  if (!found) {
    found = { type: new Negotiator({ headers: { accept } }).mediaType(RESULT_TYPES) };
    negotiated.set(accept, found);
  }
  return found.type;
}

/** A refusal of the request's form, before anything is parsed: GraphQL's shape, Apollo's code for the client's mistakes. */
const malformed = (status: 400 | 413 | 415, message: string) => new ApiError(status, message, {}, { code: 'BAD_USER_INPUT' });

const HOW = 'send a JSON object such as {"query": "{ __typename }"}';

/**
 * Reads a POST's JSON body within the size limit and refuses what GraphQL over HTTP cannot read, in
 * words a person acts on: no Content-Type or another than JSON (415, which also refuses what a
 * browser could send cross-site without a preflight, as Apollo's CSRF prevention did), an empty
 * body or one that is not JSON (400), JSON that is not one request object (400).
 */
async function readBody(req: IncomingMessage, limit: number): Promise<unknown> {
  if (req.method !== 'POST') return undefined;
  const contentType = req.headers['content-type'];
  if (!isJson(contentType)) {
    const declared = (contentType ?? '').split(';', 1)[0]!.trim();
    throw malformed(
      415,
      declared
        ? `Content-Type ${declared} is not supported: POST /graphql takes application/json; ${HOW}`
        : `a POST to /graphql needs "Content-Type: application/json"; ${HOW}`,
    );
  }
  let text: string;
  try {
    // Read as bytes and decoded here: raw-body's `encoding` goes through iconv-lite's stream
    // decoder, about 3 µs of a 60 µs request for a body that is UTF-8 by definition (RFC 8259).
    // The declared length (node's parser has checked it) lets a body over the limit be refused
    // before any of it is read; a chunked one is refused once the limit is passed.
    text = (await getRawBody(req, { limit, length: req.headers['content-length'] })).toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // a BOM, which JSON.parse refuses; iconv dropped it too
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status === 413) throw malformed(413, `request body too large (at most ${limit} bytes)`);
    throw malformed(400, 'unreadable request body');
  }
  if (text.trim() === '') throw malformed(400, `the request body is empty: ${HOW}`);
  // Deeper than any request of ours: refused before anything recurses over it (src/edge/json-depth.ts).
  if (!jsonTextWithinDepth(text)) throw malformed(400, tooDeepJson().message);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // Not the parser's message: it quotes the body, which may hold a secret.
    throw malformed(400, `the request body is not valid JSON: ${HOW}`);
  }
  if (Array.isArray(body)) throw malformed(400, 'batched requests (a JSON array) are not supported: send one request object per POST');
  if (typeof body !== 'object' || body === null) throw malformed(400, `the request body must be a JSON object: ${HOW}`);
  if (Object.keys(body).length === 0) throw malformed(400, `the request body has no "query": ${HOW}`);
  return body;
}

/** The edge's route step for /graphql: the catalogue's operation, if this method may run it here. */
function routeFor(catalogue: OperationCatalogue, request: GraphQLRequest, caller: Principal | null): PreparedOperation | ApiError {
  const found = catalogue.find(request, caller);
  if (found instanceof ApiError) return found;
  if (found.kind === 'subscription') {
    return new ApiError(400, 'subscriptions are served over WebSocket at /graphql and Server-Sent Events at /graphql/stream');
  }
  if (request.method === 'GET' && found.kind !== 'query') {
    return new ApiError(405, `GET requests only support query operations, not ${found.kind} operations`, { Allow: 'POST' });
  }
  return found;
}

type Compiled = NonNullable<ReturnType<OperationCatalogue['compiled']>>;
type AdmittedOperation = Admitted<PreparedOperation, Record<string, unknown>>;

/** A result with errors, carried out of the cache's computation so that it is sent but not kept. */
class Uncacheable {
  constructor(readonly result: ExecutionResult) {}
}

export function createGraphQLHttpHandler(options: GraphQLHttpOptions) {
  const { server, edge, catalogue } = options;
  /** Answers of shared data and of each account's own, per document, variables and data version. */
  const answers = options.answers;

  const door = edge.door<GraphQLRequest, PreparedOperation, Record<string, unknown>>({
    transport: 'graphql',
    // Introspection alone needs no key, so Sandbox can load the schema (off in production).
    mayBeOpen: true,
    find: (request, caller) => routeFor(catalogue, request, caller),
    access: (operation) => ({
      requirements: operation.analysis.requirements,
      what: 'this operation',
      usageName: operation.name,
      open: !operation.analysis.readsData,
    }),
    parameters: (operation, request) => {
      const coerced = catalogue.coerce(operation, request.variables);
      return coerced instanceof ApiError ? coerced : coerced.values;
    },
  });

  /** The key comes from the Bearer header only (D12); a malformed header is a wrong key, not none. */
  const keyOf = (req: IncomingMessage): string | undefined => presentedKey(req.headers.authorization, undefined, edge.variant);

  /** As Apollo formats an error: a code always, `extensions.http` taken out, then the one formatter. */
  function format(error: GraphQLError): GraphQLFormattedError {
    const json = error.toJSON();
    const { http: _http, ...extensions } = json.extensions ?? {};
    return options.formatError({ ...json, extensions: { ...extensions, code: extensions.code ?? 'INTERNAL_SERVER_ERROR' } }, error);
  }

  /** The HTTP status an error asks for (`extensions.http.status`), as Apollo reads it. */
  const statusOf = (errors: readonly GraphQLError[]) =>
    errors.map((e) => (e.extensions?.http as { status?: number } | undefined)?.status).find((s) => typeof s === 'number');

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

  /** Runs an admitted operation compiled; its errors through the one formatter. */
  async function runCompiled(
    req: IncomingMessage,
    res: ServerResponse,
    type: string,
    compiled: Compiled,
    context: GraphQLContext,
    variables: Record<string, unknown>,
  ) {
    options.requests?.inc({ path: 'compiled' });
    const result = await compiled.query(undefined, context, variables);
    if (!result.errors?.length) return send(req, res, type, 200, result, context.responseHeaders);
    sendErrors(req, res, type, result, context);
  }

  /** A result with errors: a field refused by its own limit asks for 429, which Apollo would answer with too. */
  function sendErrors(req: IncomingMessage, res: ServerResponse, type: string, result: ExecutionResult, context: GraphQLContext): void {
    const errors = result.errors!;
    send(req, res, type, statusOf(errors) ?? 200, { ...result, errors: errors.map(format) }, context.responseHeaders);
  }

  /**
   * An answer that may be kept (answers/versions.ts): served from the cache while its data's version
   * holds, computed once for concurrent identical requests, its ETag answering If-None-Match with
   * 304 before anything runs. A result with errors is sent, never kept.
   */
  async function runCached(
    req: IncomingMessage,
    res: ServerResponse,
    type: string,
    operation: PreparedOperation,
    compiled: Compiled,
    context: GraphQLContext,
    variables: Record<string, unknown>,
  ) {
    const versioning = operation.answers!; // only operations whose answers may be kept come here
    const what = `${operation.id}|${operation.operation.name?.value ?? ''}`;
    let computed = false;
    let failed: ExecutionResult | undefined;
    const body = await answers
      .answer(versioning, context.services, context.principal, what, variables, async () => {
        computed = true;
        const result = await compiled.query(undefined, context, variables);
        if (result.errors?.length) throw new Uncacheable(result);
        return result;
      })
      .catch((error: unknown) => {
        if (!(error instanceof Uncacheable)) throw error;
        failed = error.result;
        return undefined;
      });
    options.requests?.inc({ path: computed ? 'compiled' : 'cached' });
    if (!body) return sendErrors(req, res, type, failed!, context);
    sendBytes(req, res, type, 200, body.bytes, context.responseHeaders, body.etag);
  }

  /** Apollo's own answer, as its Express integration would give it; `request` rewrites what it reads to the catalogue's text. */
  async function runApollo(req: IncomingMessage, res: ServerResponse, body: unknown, context: GraphQLContext, request?: GraphQLRequest): Promise<void> {
    const headers = new HeaderMap();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const url = req.url ?? '';
    let search = url.includes('?') ? url.slice(url.indexOf('?')) : '';
    if (request) {
      // Admitted already, and judged safe from forgery (a key in the header, or Apollo's own preflight header).
      headers.set('apollo-require-preflight', 'true');
      const { query, operationName, variables, extensions } = request;
      body = req.method === 'POST' ? { query, variables, ...(operationName ? { operationName } : {}), ...(extensions ? { extensions } : {}) } : undefined;
      if (req.method === 'GET')
        search = `?${new URLSearchParams({ query: query!, ...(operationName ? { operationName } : {}), variables: JSON.stringify(variables) })}`;
    }
    const answer = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: req.method!.toUpperCase(), headers, search, body },
      context: async () => context,
    });
    for (const [name, value] of answer.headers) res.setHeader(name, value);
    for (const [name, value] of Object.entries(context.responseHeaders)) res.setHeader(name, value);
    res.statusCode = answer.status ?? 200;
    if (answer.body.kind === 'complete') {
      res.end(answer.body.string);
      return;
    }
    for await (const chunk of answer.body.asyncIterator) res.write(chunk);
    res.end();
  }

  /** A request GraphQL over HTTP cannot read is answered in GraphQL's shape; what else fails goes to the listener. */
  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const type = negotiatedType(req.headers.accept);
    let body: unknown;
    try {
      body = await readBody(req, options.maxBodyBytes);
    } catch (error) {
      // The rest of a refused body may be unread: the connection cannot carry another request.
      res.setHeader('Connection', 'close');
      if (!(error instanceof ApiError)) throw error;
      return send(req, res, type ?? RESULT_TYPES[0]!, error.status, { errors: toGraphQLErrors(error).map(format) }, {});
    }
    const request = graphqlRequestOf(req, body);
    if (request !== undefined && type === undefined) {
      // Apollo's 406, said before anything is parsed: the answer could not be sent anyway.
      const refusal = new ApiError(406, NOT_ACCEPTABLE, {}, { code: 'BAD_USER_INPUT' });
      return send(req, res, RESULT_TYPES[0]!, 406, { errors: toGraphQLErrors(refusal).map(format) }, {});
    }
    if (request === undefined) {
      options.requests?.inc({ path: 'apollo' });
      return runApollo(req, res, body, catalogue.context(null, 'graphql'));
    }
    if (request instanceof ApiError) return send(req, res, type!, request.status, { errors: toGraphQLErrors(request).map(format) }, {});
    const presented = { key: keyOf(req), misplacedKey: misplacedKey(req.headers, undefined, edge.variant) };
    return door.serve(presented, request, async (outcome) => {
      if (outcome.admitted) return run(req, res, type!, body, request, outcome);
      send(req, res, type!, outcome.error.status, { errors: toGraphQLErrors(outcome.error).map(format) }, outcome.headers);
    });
  };

  /** An admitted operation: from the answers' cache, compiled, or by Apollo. */
  function run(req: IncomingMessage, res: ServerResponse, type: string, body: unknown, request: GraphQLRequest, admitted: AdmittedOperation): Promise<void> {
    const context = catalogue.context(admitted.principal, 'graphql', { admitted: true });
    Object.assign(context.responseHeaders, admitted.headers);
    // Compiled once admitted (the first time this text runs), never for a caller the edge refused.
    const compiled = catalogue.compiled(admitted.target);
    if (compiled && admitted.target.answers) return runCached(req, res, type, admitted.target, compiled, context, admitted.params);
    if (compiled) return runCompiled(req, res, type, compiled, context, admitted.params);
    options.requests?.inc({ path: 'apollo' });
    return runApollo(req, res, body, context, { ...request, query: admitted.target.text });
  }
}
