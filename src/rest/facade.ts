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
import type { OperationCatalogue } from '../graphql/catalogue/catalogue.js';
import { createResponseCache, matchesEtag } from '../graphql/answers/kept-answers.js';
import type { GraphQLServices } from '../graphql/services.js';
import type { Deprecations } from './deprecations.js';
import { inOperationSpan } from '../telemetry/operation-span.js';
import { type Tracing, tracing } from '../telemetry/tracing.js';
import type { Principal } from '../auth/key-answers.js';
import { sendError, sendJson } from './envelope.js';
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
   * HEAD's headers without the body.
   */
  async function handle(route: PreparedRoute | undefined, req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = (req.url ?? '/').slice(API_PREFIX.length) || '/';
      const q = url.indexOf('?');
      const path = route?.route.path ?? ((q < 0 ? url : url.slice(0, q)).replace(/\/+$/, '') || '/');
      const query = parseRawQuery(url);
      const apikey = query.get('apikey')?.[0];
      const presented = { key: presentedKey(req.headers.authorization, apikey, variant), misplacedKey: misplacedKey(req.headers, apikey, variant) };
      await door.serve(presented, { req, res, path, query, route }, answer);
    } catch (error) {
      sendError(res, variant, classify('rest', error));
    }
  }

  /**
   * The outcome, rendered. Once the route is known every answer names its operation (and its
   * deprecation), admitted or not; an admitted route's answer is executed, or already computed for
   * the same data and parameters.
   */
  async function answer(outcome: Outcome<PreparedRoute, RestParams>, { req, res, query }: RestInput): Promise<void> {
    const known = outcome.target;
    for (const [name, value] of Object.entries({ ...known?.headers, ...outcome.headers })) res.setHeader(name, value);
    // Unknown parameters are ignored (D6), and said so: `lmit=5` is a typo the caller can see.
    const ignored = known ? ignoredParams(known.route.params, query, ownParams) : [];
    if (ignored.length > 0) res.setHeader('X-Ignored-Parameters', ignored.join(', '));
    if (!outcome.admitted) return sendError(res, variant, outcome.error);
    const { target: prepared, params, principal } = outcome;
    const traced = tracing();
    if (traced) return traced.inSpan('rest envelope', { 'mgw.route': prepared.access.usageName }, () => envelope(prepared, params, principal, req, res));
    return envelope(prepared, params, principal, req, res);
  }

  /** The admitted route's answer: its operation's result (kept or executed), reshaped into the variant's envelope. */
  async function envelope(prepared: PreparedRoute, params: RestParams, principal: Principal | null, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { route } = prepared;
    const traced = tracing();
    let executed = false;
    /** Executes the route's operation in-process; a failed one becomes the ApiError to answer. */
    const run = async () => {
      executed = true;
      const result = await prepared.compiled.query(undefined, catalogue.context(principal, 'rest'), route.variables(params) as Record<string, unknown>);
      if (result.errors?.length) throw classify('rest', result.errors[0]);
      return route.reshape(result.data, params);
    };
    if (!route.cache) return sendJson(res, 200, Buffer.from(JSON.stringify(await operation(traced, prepared, run, () => executed))));
    const cached = route.cache;
    const body = await operation(
      traced,
      prepared,
      () => cache.answer(cached, services, principal, route.path, params, run),
      () => executed,
    );
    res.setHeader('ETag', body.etag);
    res.setHeader('Cache-Control', `private, max-age=${route.cache.maxAgeSeconds}`);
    if (matchesEtag(req.headers['if-none-match'], body.etag)) return sendJson(res, 304, undefined);
    sendJson(res, 200, body.bytes);
  }

  /** The route's GraphQL operation, in a span when traced: its name, type and document id, and whether it ran or was kept. */
  function operation<T>(traced: Tracing | undefined, prepared: PreparedRoute, work: () => Promise<T>, ran: () => boolean): Promise<T> {
    if (!traced) return work();
    const { name, sha256 } = prepared.published;
    return inOperationSpan(traced, { name, type: 'query', documentId: sha256 }, work, ran);
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
