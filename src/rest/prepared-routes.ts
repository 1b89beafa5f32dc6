/**
 * A facade's routes, prepared once at start: each route's operation registered in the catalogue (a
 * broken one fails start-up) and compiled, its plan derived from the operation's fields (D12), how
 * refusals and usage records name it, its published operation and the headers its answers carry.
 * Each carries what the edge checks (its access, its sunset, its parameters' check), so the facade's
 * entrance to the edge is data: the edge never calls back into the facade.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Access, type FoundInput, type PreparedTarget, preparedEntrance } from '../edge/edge.js';
import type { Variant } from '../domain/variant.js';
import type { OperationCatalogue } from '../graphql/catalogue/catalogue.js';
import type { PreparedOperation } from '../graphql/catalogue/prepare.js';
import { type Deprecations, deprecationHeaders, sunsetRefusal } from './deprecations.js';
import { operationHrefOf, type RouteOperation } from './operation-documents.js';
import { paramsCheckOf, type RawQuery } from './params.js';
import { type RouteDefinition, routeIdOf, routeWhat } from './route-table.js';

export type RestParams = Record<string, unknown>;

export interface PreparedRoute extends PreparedTarget<RestInput, RestParams> {
  route: RouteDefinition;
  /** Its operation from the catalogue: its plan derived from its fields (D12). */
  operation: PreparedOperation;
  /** graphql-jit's function, compiled at start. */
  compiled: NonNullable<ReturnType<OperationCatalogue['compiled']>>;
  /** What the edge checks: its plans, how refusals (`GET /api/v1/brief`) and usage records (`A GET /api/v1/brief`) name it. */
  access: Access;
  /** As clients find it: X-GraphQL-Operation, /graphql/operations, OpenAPI. */
  published: RouteOperation;
  /** On every answer once the route is known: X-GraphQL-Operation, and the deprecation headers of a declared route. */
  headers: Record<string, string>;
}

/** What the facade reads off a request: its route (or the 404 or 405 of its path and method) among them. */
export interface RestInput extends FoundInput<PreparedRoute> {
  req: IncomingMessage;
  res: ServerResponse;
  query: RawQuery;
}

interface PrepareOptions {
  variant: Variant;
  routes: readonly RouteDefinition[];
  catalogue: OperationCatalogue;
  /** Routes declared deprecated, by route id (LEGACY_DEPRECATIONS); `enforceSunset`: 410 past a sunset. */
  deprecations?: Deprecations | undefined;
  enforceSunset?: boolean | undefined;
  /** The clock of the sunsets, read only for a route that has one. */
  now: () => number;
}

function prepare(options: PrepareOptions, route: RouteDefinition): PreparedRoute {
  const { catalogue, variant } = options;
  const what = routeWhat(route.path);
  const usageName = routeIdOf(variant, route.path);
  const operation = catalogue.register(what, route.operation);
  const name = operation.operation.name?.value;
  if (!name) throw new Error(`the operation of ${what} has no name: clients find it by its name`);
  const published = { name, document: operation.text, href: operationHrefOf(name), sha256: operation.id };
  const declared = options.deprecations?.[usageName];
  const headers = { 'X-GraphQL-Operation': name, ...(declared ? deprecationHeaders(declared, published.href) : {}) };
  const gone = sunsetRefusal(declared, options.enforceSunset ?? false, what, published);
  const access = { requirements: operation.analysis.requirements, what, usageName };
  return { route, operation, compiled: catalogue.compiled(operation)!, access, published, headers, gone, parameters: paramsCheckOf(route.params) };
}

/** The facade's routes by path under /api/v1, and its entrance to the edge. */
export function prepareRoutes(options: PrepareOptions) {
  const byPath = new Map<string, PreparedRoute>(options.routes.map((route) => [route.path, prepare(options, route)]));
  const entrance = preparedEntrance<RestInput, PreparedRoute, RestParams>('rest', { keyInQuery: options.variant === 'B', now: options.now });
  return { byPath, entrance };
}
