/**
 * A REST facade: the documented /api/v1 GETs of one variant, each executing its GraphQL
 * operation in-process against the same schema and context as /graphql, compiled once at start.
 * The edge admits the request (key, route, plan, quota, parameters); the facade executes and answers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DegradedAnswers } from '../edge/degraded.js';
import { type GraphQLSchema, validate } from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import type { Logger } from 'pino';
import { presentedKey } from '../auth/credentials.js';
import type { GraphQLContext } from '../graphql/context.js';
import type { GraphQLServices } from '../graphql/services.js';
import { apiErrorOf } from '../edge/graphql-codes.js';
import { createLoaders } from '../graphql/loaders.js';
import type { PlanRequirements } from '../domain/plans.js';
import { analyzeOperation, collectFieldRequirements } from '../graphql/plan-requirements.js';
import type { Edge } from '../edge/edge.js';
import { ApiError } from '../edge/errors.js';
import { sendError, sendJson } from './envelope.js';
import { parseParams } from './params.js';
import { parseRawQuery } from './query.js';
import { cacheKeyOf, createResponseCache, matchesEtag } from './response-cache.js';
import type { RouteDefinition } from './route-table.js';

interface PreparedRoute {
  route: RouteDefinition;
  /** The operation compiled once (graphql-jit): no parse, validation or AST walk per request. */
  compiled: CompiledQuery;
  /** Derived from the operation's fields, as for /graphql (D12). */
  requirements: PlanRequirements;
}

interface FacadeOptions {
  /** Where answers spoiled by a dependency are logged and counted. */
  degraded: DegradedAnswers;
  routes: readonly RouteDefinition[];
  schema: GraphQLSchema;
  /** The listener's edge; its variant is the facade's. */
  edge: Edge;
  services: GraphQLServices;
  logger: Logger;
}

/** Validates every operation against the schema once, at start: a broken route fails start-up, not a request. */
function prepare(schema: GraphQLSchema, routes: readonly RouteDefinition[]): Map<string, PreparedRoute> {
  const fields = collectFieldRequirements(schema);
  const prepared = new Map<string, PreparedRoute>();
  for (const route of routes) {
    const errors = validate(schema, route.operation);
    if (errors.length > 0) throw new Error(`operation of GET ${route.path} is invalid: ${errors.map((e) => e.message).join('; ')}`);
    const operation = route.operation.definitions.find((d) => d.kind === 'OperationDefinition');
    if (operation?.kind !== 'OperationDefinition') throw new Error(`GET ${route.path} has no operation`);
    const compiled = compileQuery(schema, route.operation);
    if (!isCompiledQuery(compiled))
      throw new Error(`operation of GET ${route.path} does not compile: ${JSON.stringify((compiled as { errors?: unknown }).errors)}`);
    prepared.set(route.path, { route, compiled, requirements: analyzeOperation(schema, fields, route.operation, operation).requirements });
  }
  return prepared;
}

export function createFacadeHandler(options: FacadeOptions) {
  const routes = prepare(options.schema, options.routes);
  const { edge } = options;
  const variant = edge.variant;
  const cache = createResponseCache();

  /** Executes a route's operation in-process; a failed one becomes the ApiError to answer. */
  async function run(prepared: PreparedRoute, params: Record<string, unknown>, principal: GraphQLContext['principal']): Promise<unknown> {
    const contextValue: GraphQLContext = {
      principal,
      services: options.services,
      loaders: createLoaders(options.services),
      transport: 'rest',
      responseHeaders: {},
    };
    const result = await prepared.compiled.query(undefined, contextValue, prepared.route.variables(params) as Record<string, unknown>);
    if (result.errors?.length) {
      const original = result.errors[0]!.originalError;
      const unavailable = options.degraded.answerFor('rest', original);
      if (unavailable) throw unavailable;
      const error = apiErrorOf(result.errors[0]!);
      if (error.status >= 500) options.logger.error({ err: result.errors[0]!.originalError ?? result.errors[0] }, 'facade operation failed');
      throw error;
    }
    return result.data;
  }

  /** `url` is the request's path and query under /api/v1 (e.g. `/markets?limit=5`). */
  return async function handle(req: IncomingMessage, res: ServerResponse, url: string): Promise<void> {
    const q = url.indexOf('?');
    const path = (q < 0 ? url : url.slice(0, q)).replace(/\/+$/, '') || '/';
    const head = req.method === 'HEAD';
    try {
      const query = parseRawQuery(url);
      const outcome = await edge.admit({
        key: presentedKey(req.headers.authorization, query.get('apikey')?.[0], variant),
        keyInQuery: variant === 'B',
        route: () => {
          const found = routes.get(path);
          if (!found) throw new ApiError(404, `no endpoint ${path === '/' ? '' : path} under /api/v1; see /api/v1/openapi.json`);
          if (req.method !== 'GET' && req.method !== 'HEAD') {
            throw new ApiError(405, `${req.method} is not allowed on /api/v1${path}; use GET or HEAD`, { Allow: 'GET, HEAD' });
          }
          return found;
        },
        access: (found) => ({ requirements: found.requirements, what: `GET /api/v1${path}` }),
        parameters: (found) => parseParams(found.route.params, query),
      });
      for (const [name, value] of Object.entries(outcome.headers)) res.setHeader(name, value);
      if (!outcome.admitted) throw outcome.refusal;
      const { target: prepared, params, principal } = outcome;
      // 6. Execution, or the answer already computed for the same data and parameters
      const policy = prepared.route.cache;
      if (!policy) {
        const value = prepared.route.reshape(await run(prepared, params, principal), params);
        sendJson(res, 200, Buffer.from(JSON.stringify(value)), head);
        return;
      }
      const now = options.services.now();
      const key = cacheKeyOf(path, params, await policy.version(options.services, now, principal));
      const body = await cache.get(key, async () => prepared.route.reshape(await run(prepared, params, principal), params));
      res.setHeader('ETag', body.etag);
      res.setHeader('Cache-Control', `private, max-age=${policy.maxAgeSeconds}`);
      if (matchesEtag(req.headers['if-none-match'], body.etag)) {
        sendJson(res, 304, undefined);
        return;
      }
      sendJson(res, 200, body.bytes, head);
    } catch (error) {
      if (error instanceof ApiError) return sendError(res, variant, error, head);
      const unavailable = options.degraded.answerFor('rest', error);
      if (unavailable) return sendError(res, variant, unavailable, head);
      options.logger.error({ err: error }, 'facade request failed');
      sendError(res, variant, new ApiError(500, 'internal error'), head);
    }
  };
}
