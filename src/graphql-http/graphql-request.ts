/**
 * What a /graphql request asks for, read from its wire form (GraphQL over HTTP): a POSTed JSON body
 * or a GET's query string, naming an operation by its text, by APQ's `extensions.persistedQuery`
 * (what Apollo Client's persisted-queries link sends) or by `documentId` (the GraphQL-over-HTTP
 * persisted documents proposal). Anything else is Apollo's to answer as it always has: the
 * Sandbox page, CSRF prevention, a body that is not a GraphQL request.
 */
import type { IncomingMessage } from 'node:http';
import { documentIdOf } from '../domain/trusted-documents.js';
import { ApiError } from '../domain/refusal.js';
import { jsonTextWithinDepth, tooDeepJson } from '../edge/json-depth.js';
import type { OperationRequest } from '../graphql/catalogue/catalogue.js';

export interface GraphQLRequest extends OperationRequest {
  variables: Record<string, unknown>;
  /** The client's extensions other than `persistedQuery`, passed on to Apollo. */
  extensions?: Record<string, unknown>;
  method: 'GET' | 'POST';
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON parameter of a GET (`variables`, `extensions`); `false` when it does not parse to an object; a 400 when nested too deep. */
function jsonParam(value: string | null): Record<string, unknown> | undefined | false | ApiError {
  if (value === null) return undefined;
  if (!jsonTextWithinDepth(value)) return tooDeepJson();
  try {
    const parsed: unknown = JSON.parse(value);
    return isObject(parsed) ? parsed : false;
  } catch {
    return false;
  }
}

function withoutPersistedQuery(extensions: Record<string, unknown>): Record<string, unknown> {
  const { persistedQuery: _taken, ...others } = extensions;
  return others;
}

/**
 * Apollo's CSRF prevention: a GET that a browser could send cross-site without a preflight is
 * Apollo's to refuse. A key in `Authorization` always makes a browser ask first.
 */
function preflighted(req: IncomingMessage): boolean {
  if (req.headers.authorization || req.headers['x-apollo-operation-name'] || req.headers['apollo-require-preflight']) return true;
  const type = (req.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
  return type !== '' && type !== 'text/plain' && type !== 'multipart/form-data' && type !== 'application/x-www-form-urlencoded';
}

/**
 * The request, a refusal of its persisted-query extension (400, as Apollo answers), or undefined
 * for what Apollo answers itself. `body` is the parsed JSON of a POST, undefined for any other.
 */
export function graphqlRequestOf(req: IncomingMessage, body: unknown): GraphQLRequest | ApiError | undefined {
  let fields: { query: unknown; operationName: unknown; variables: unknown; extensions: unknown; documentId: unknown };
  if (req.method === 'POST') {
    if (!isObject(body)) return undefined;
    fields = { query: body.query, operationName: body.operationName, variables: body.variables, extensions: body.extensions, documentId: body.documentId };
  } else if (req.method === 'GET' && preflighted(req)) {
    const url = req.url ?? '';
    const search = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
    // A parameter given twice is Apollo's 400 ("may only be specified once"), before it parses anything.
    if (['query', 'operationName', 'variables', 'extensions', 'documentId'].some((name) => search.getAll(name).length > 1)) return undefined;
    const variables = jsonParam(search.get('variables'));
    const extensions = jsonParam(search.get('extensions'));
    if (variables instanceof ApiError) return variables;
    if (extensions instanceof ApiError) return extensions;
    if (variables === false || extensions === false) return undefined;
    fields = {
      query: search.get('query') ?? undefined,
      operationName: search.get('operationName') ?? undefined,
      variables,
      extensions,
      documentId: search.get('documentId') ?? undefined,
    };
  } else {
    return undefined;
  }
  const { query, operationName, variables, extensions, documentId } = fields;
  if (query != null && typeof query !== 'string') return undefined;
  if (operationName != null && typeof operationName !== 'string') return undefined;
  if (variables != null && !isObject(variables)) return undefined;
  if (extensions != null && !isObject(extensions)) return undefined;
  // Most requests carry no extensions, or only the client's own: no copy unless persistedQuery must come out.
  const persistedQuery = extensions?.persistedQuery;
  const others = persistedQuery === undefined ? extensions : withoutPersistedQuery(extensions!);
  // A `documentId` that is not a string is not one: ignored, as Apollo ignores fields it does not know.
  let id = typeof documentId === 'string' ? documentIdOf(documentId) : undefined;
  if (persistedQuery !== undefined) {
    if (!isObject(persistedQuery) || persistedQuery.version !== 1) return new ApiError(400, 'Unsupported persisted query version');
    if (typeof persistedQuery.sha256Hash !== 'string') return new ApiError(400, 'persistedQuery.sha256Hash must be a string');
    id = persistedQuery.sha256Hash;
  }
  if (!query && id === undefined) return undefined; // Apollo's own 400: "must contain a non-empty `query`"
  return {
    query: query || undefined,
    operationName: operationName ?? undefined,
    id,
    variables: variables ?? {},
    extensions: others && Object.keys(others).length > 0 ? others : undefined,
    method: req.method as 'GET' | 'POST',
  };
}
