/**
 * A REST facade: the documented /api/v1 GETs of one variant, each executing its GraphQL
 * operation in-process against the same schema and context as /graphql. The operations are
 * registered in the catalogue at start (a broken route fails start-up). The edge admits the
 * request (key, route, plan, quota, parameters); the facade executes and renders the outcome.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { misplacedKey, presentedKey } from '../auth/api-key.js';
import type { Classify } from '../edge/classify.js';
import type { Admitted, Edge, Outcome } from '../edge/edge.js';
import { ApiError } from '../edge/errors.js';
import type { Principal } from '../auth/authenticator.js';
import type { OperationCatalogue } from '../graphql/catalogue/catalogue.js';
import type { PreparedOperation } from '../graphql/catalogue/prepare.js';
import type { GraphQLServices } from '../graphql/services.js';
import { type Deprecations, deprecationHeaders, sunsetRefusal } from './deprecations.js';
import { sendError, sendJson } from './envelope.js';
import { createOperationDocuments, operationHrefOf, type RouteOperation } from './operation-documents.js';
import { checkParams, ignoredParams, parseRawQuery, type RawQuery } from './params.js';
import { createResponseCache, matchesEtag } from '../graphql/answers/kept-answers.js';
import { type RouteDefinition, routeIdOf, routeWhat } from './route-table.js';

interface PreparedRoute {
  route: RouteDefinition;
  /** Its operation from the catalogue: its plan derived from its fields (D12). */
  operation: PreparedOperation;
  /** graphql-jit's function, compiled at start. */
  compiled: NonNullable<ReturnType<OperationCatalogue['compiled']>>;
  /** `GET /api/v1/brief`: how refusals name the route. */
  what: string;
  /** `A GET /api/v1/brief`: the route's id in usage records and LEGACY_DEPRECATIONS. */
  id: string;
  /** As clients find it: X-GraphQL-Operation, /graphql/operations, OpenAPI. */
  published: RouteOperation;
  /** On every answer once the route is known: X-GraphQL-Operation, and the deprecation headers of a declared route. */
  headers: Record<string, string>;
  /** The 410 of a route past its sunset (when enforced), at `now`. */
  gone(now: number): ApiError | undefined;
}

type AdmittedRoute = Admitted<PreparedRoute, Record<string, unknown>>;

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

export function createFacadeHandler(options: FacadeOptions) {
  const { edge, catalogue, classify } = options;
  const variant = edge.variant;
  const routes = new Map<string, PreparedRoute>(options.routes.map((route) => [route.path, prepare(route)]));
  const cache = createResponseCache();

  function prepare(route: RouteDefinition): PreparedRoute {
    const what = routeWhat(route.path);
    const id = routeIdOf(variant, route.path);
    const operation = catalogue.register(what, route.operation);
    const name = operation.operation.name?.value;
    if (!name) throw new Error(`the operation of ${what} has no name: clients find it by its name`);
    const published = { name, document: operation.text, href: operationHrefOf(name), sha256: operation.id };
    const declared = options.deprecations?.[id];
    const headers = { 'X-GraphQL-Operation': name, ...(declared ? deprecationHeaders(declared, published.href) : {}) };
    const gone = sunsetRefusal(declared, options.enforceSunset ?? false, what, published);
    return { route, operation, compiled: catalogue.compiled(operation)!, what, id, published, headers, gone };
  }

  /** Executes a route's operation in-process; a failed one becomes the ApiError to answer. */
  async function run(prepared: PreparedRoute, params: Record<string, unknown>, principal: Principal | null): Promise<unknown> {
    const context = catalogue.context(principal, 'rest');
    const result = await prepared.compiled.query(undefined, context, prepared.route.variables(params) as Record<string, unknown>);
    if (result.errors?.length) throw classify('rest', result.errors[0]);
    return result.data;
  }

  /** The route at `path` (a table's own, or one found by the listener's table already), if `method` may read it. */
  function find(path: string, method: string | undefined, found = routes.get(path)): PreparedRoute | ApiError {
    if (!found) return new ApiError(404, `no endpoint ${path === '/' ? '' : path} under /api/v1; see /api/v1/openapi.json`);
    if (method !== 'GET' && method !== 'HEAD') return new ApiError(405, `${method} is not allowed on /api/v1${path}; use GET or HEAD`, { Allow: 'GET, HEAD' });
    return found;
  }

  /** What the facade reads off a request: its path under /api/v1, method and query; the route when the listener's table found it. */
  interface RestInput {
    path: string;
    method: string | undefined;
    query: RawQuery;
    route: PreparedRoute | undefined;
  }

  const door = edge.door<RestInput, PreparedRoute, Record<string, unknown>>({
    transport: 'rest',
    keyInQuery: variant === 'B',
    find: (input) => find(input.path, input.method, input.route),
    // Past its sunset (enforced), a route is refused here: before any quota is spent.
    closed: (found) => found.gone(options.services.now()),
    access: (found) => ({ requirements: found.operation.analysis.requirements, what: found.what, usageName: found.id }),
    parameters: (found, input) => checkParams(found.route.params, input.query),
  });

  /**
   * `url` is the request's path and query under /api/v1 (e.g. `/markets?limit=5`); `route` the
   * route the listener's table found for it, else it is looked up here (a trailing slash, a path
   * of no route). HEAD is answered as GET: node sends a HEAD's headers without the body.
   */
  async function handle(req: IncomingMessage, res: ServerResponse, url: string, route?: PreparedRoute): Promise<void> {
    try {
      const q = url.indexOf('?');
      const path = route?.route.path ?? ((q < 0 ? url : url.slice(0, q)).replace(/\/+$/, '') || '/');
      const query = parseRawQuery(url);
      const apikey = query.get('apikey')?.[0];
      const presented = { key: presentedKey(req.headers.authorization, apikey, variant), misplacedKey: misplacedKey(req.headers, apikey, variant) };
      await door.serve(presented, { path, method: req.method, query, route }, (outcome) => answer(req, res, outcome, query));
    } catch (error) {
      sendError(res, variant, classify('rest', error));
    }
  }

  /** Once the route is known, every answer names its operation (and its deprecation), admitted or not. */
  function answer(req: IncomingMessage, res: ServerResponse, outcome: Outcome<PreparedRoute, Record<string, unknown>>, query: RawQuery) {
    const known = outcome.target;
    for (const [name, value] of Object.entries({ ...known?.headers, ...outcome.headers })) res.setHeader(name, value);
    // Unknown parameters are ignored (D6), and said so: `lmit=5` is a typo the caller can see.
    const ignored = known ? ignoredParams(known.route.params, query, variant === 'B' ? ['apikey'] : []) : [];
    if (ignored.length > 0) res.setHeader('X-Ignored-Parameters', ignored.join(', '));
    if (!outcome.admitted) return Promise.resolve(sendError(res, variant, outcome.error));
    return admittedAnswer(req, res, outcome);
  }

  /** Step 6: the route's answer, executed, or already computed for the same data and parameters. */
  async function admittedAnswer(req: IncomingMessage, res: ServerResponse, admitted: AdmittedRoute): Promise<void> {
    const { target: prepared, params, principal } = admitted;
    const policy = prepared.route.cache;
    if (!policy) {
      const value = prepared.route.reshape(await run(prepared, params, principal), params);
      sendJson(res, 200, Buffer.from(JSON.stringify(value)));
      return;
    }
    const body = await cache.answer(policy, options.services, principal, prepared.route.path, params, async () =>
      prepared.route.reshape(await run(prepared, params, principal), params),
    );
    res.setHeader('ETag', body.etag);
    res.setHeader('Cache-Control', `private, max-age=${policy.maxAgeSeconds}`);
    if (matchesEtag(req.headers['if-none-match'], body.etag)) {
      sendJson(res, 304, undefined);
      return;
    }
    sendJson(res, 200, body.bytes);
  }

  const operations = [...routes.values()].map((prepared) => prepared.published);
  return Object.assign(handle, {
    /** Each route's own handler, by its path under /api/v1: the listener's table dispatches to it directly. */
    routes: new Map([...routes].map(([path, prepared]) => [path, (req: IncomingMessage, res: ServerResponse, url: string) => handle(req, res, url, prepared)])),
    /** Route path -> its operation, as published. */
    operations: Object.fromEntries([...routes].map(([path, prepared]) => [path, prepared.published])) as Record<string, RouteOperation>,
    /** Serves them at /graphql/operations/<Name>.graphql. */
    documents: createOperationDocuments(operations),
  });
}
