/**
 * A REST facade: the documented /api/v1 GETs of one variant, each executing its GraphQL
 * operation in-process against the same schema and context as /graphql. Its routes are prepared
 * at start (prepared-routes.ts), and go into the listener's table; the edge admits the request
 * (key, route, plan, quota, parameters) through the facade's entrance; the facade executes and
 * renders the outcome.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { misplacedKey, presentedKey } from '../auth/api-key.js';
import type { Classify } from '../edge/classify.js';
import type { Edge, Outcome } from '../edge/edge.js';
import { ApiError } from '../domain/refusal.js';
import type { OperationCatalogue } from '../graphql/catalogue/catalogue.js';
import { createResponseCache } from '../graphql/answers/kept-answers.js';
import type { GraphQLServices } from '../graphql/services.js';
import type { Deprecations } from './deprecations.js';
import { inOperationSpan } from '../telemetry/operation-span.js';
import { activeTracing } from '../telemetry/tracing.js';
import { sendError, sendJson, sendKept } from './envelope.js';
import { createOperationDocuments, type RouteOperation } from './operation-documents.js';
import { ignoredParams, parseRawQuery } from './params.js';
import { type PreparedRoute, prepareRoutes, type RestInput, type RestParams } from './prepared-routes.js';
import type { RouteDefinition } from './route-table.js';

interface FacadeOptions {
  routes: readonly RouteDefinition[];
  catalogue: OperationCatalogue;
  /** The listener's edge; its variant is the facade's. */
  edge: Edge;
  services: GraphQLServices;
  classify: Classify;
  /** Routes declared deprecated, by route id (LEGACY_DEPRECATIONS); `enforceSunset`: 410 past a sunset. */
  deprecations?: Deprecations;
  enforceSunset?: boolean;
}

const API_PREFIX = '/api/v1';

export function createFacadeHandler(options: FacadeOptions) {
  const { edge, catalogue, classify, services } = options;
  const variant = edge.variant;
  const { byPath, entrance } = prepareRoutes({ ...options, variant, now: () => services.now() });
  const door = edge.door(entrance);
  const cache = createResponseCache();
  /** Parameters the facade reads that no route declares. */
  const ownParams = variant === 'B' ? ['apikey'] : [];

  /**
   * A request under /api/v1; `route` the one the listener's table found for its path, else it is
   * looked up here (a trailing slash, a path of no route). HEAD is answered as GET: node sends a
   * HEAD's headers without the body. Nothing here waits: the edge admits, then hands the outcome to
   * `answer`, which sends a kept answer at once.
   */
  function handle(route: PreparedRoute | undefined, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = (req.url ?? '/').slice(API_PREFIX.length) || '/';
    const q = url.indexOf('?');
    const path = route?.route.path ?? ((q < 0 ? url : url.slice(0, q)).replace(/\/+$/, '') || '/');
    const known = route ?? byPath.get(path);
    const method = req.method;
    // Found here, said by the edge after the key step (D3).
    const found = !known
      ? new ApiError(404, `no endpoint ${path === '/' ? '' : path} under /api/v1; see /api/v1/openapi.json`)
      : method === 'GET' || method === 'HEAD'
        ? known
        : new ApiError(405, `${method} is not allowed on /api/v1${path}; use GET or HEAD`, { Allow: 'GET, HEAD' });
    const query = parseRawQuery(url);
    const apikey = query.get('apikey')?.[0];
    const presented = { key: presentedKey(req.headers.authorization, apikey, variant), misplacedKey: misplacedKey(req.headers, apikey, variant) };
    return door
      .serve(presented, { req, res, query, found }, activeTracing ? answerInSpan : answer)
      .catch((error: unknown) => sendError(res, variant, classify('rest', error)));
  }

  /** Traced, an admitted route's answer is a span of its own, with its operation's span under it. */
  function answerInSpan(outcome: Outcome<PreparedRoute, RestParams>, input: RestInput): void | Promise<void> {
    const traced = activeTracing;
    if (!traced || !outcome.admitted) return answer(outcome, input);
    return traced.inSpan('rest envelope', { 'mgw.route': outcome.target.access.usageName }, async () => answer(outcome, input));
  }

  /**
   * The outcome, rendered. Once the route is known every answer names its operation (and its
   * deprecation), admitted or not; an admitted route's answer is its operation's result, kept for
   * the same data and parameters or executed, reshaped into the variant's envelope.
   */
  function answer(outcome: Outcome<PreparedRoute, RestParams>, { req, res, query }: RestInput): void | Promise<void> {
    const known = outcome.target;
    for (const [name, value] of Object.entries({ ...known?.headers, ...outcome.headers })) res.setHeader(name, value);
    // Unknown parameters are ignored (D6), and said so: `lmit=5` is a typo the caller can see.
    const ignored = known ? ignoredParams(known.route.params, query, ownParams) : [];
    if (ignored.length > 0) res.setHeader('X-Ignored-Parameters', ignored.join(', '));
    if (!outcome.admitted) return sendError(res, variant, outcome.error);
    const { target: prepared, params, principal } = outcome;
    const { route } = prepared;
    const traced = activeTracing;
    let executed = false;
    /** Executes the route's operation in-process; a failed one becomes the ApiError to answer. */
    const run = async () => {
      executed = true;
      const result = await prepared.compiled.query(undefined, catalogue.context(principal, 'rest'), route.variables(params) as Record<string, unknown>);
      if (result.errors?.length) throw classify('rest', result.errors[0]);
      return route.reshape(result.data, params);
    };
    // Traced, the operation is a span: its name, type and document id, and whether it ran or was kept.
    const span = traced && { name: prepared.published.name, type: 'query' as const, documentId: prepared.published.sha256 };
    const kept = route.cache;
    if (!kept) {
      const value = span ? inOperationSpan(traced, span, run, () => executed) : run();
      return value.then((reshaped) => sendJson(res, 200, Buffer.from(JSON.stringify(reshaped))));
    }
    const body = span
      ? inOperationSpan(
          traced,
          span,
          async () => cache.answer(kept, services, principal, route.path, params, run),
          () => executed,
        )
      : cache.answer(kept, services, principal, route.path, params, run);
    if (!(body instanceof Promise)) return sendKept(req, res, body, kept.maxAgeSeconds);
    return body.then((computed) => sendKept(req, res, computed, kept.maxAgeSeconds));
  }

  const operations = [...byPath.values()].map((prepared) => prepared.published);
  return Object.assign(handle.bind(undefined, undefined), {
    /** Each route's own handler, by its path under /api/v1: the listener's table dispatches to it directly. */
    routes: new Map([...byPath].map(([path, prepared]) => [path, handle.bind(undefined, prepared)])),
    /** Route path -> its operation, as published. */
    operations: Object.fromEntries([...byPath].map(([path, prepared]) => [path, prepared.published])) as Record<string, RouteOperation>,
    /** Serves them at /graphql/operations/<Name>.graphql. */
    documents: createOperationDocuments(operations),
  });
}
