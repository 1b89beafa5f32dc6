/**
 * One listener per variant (D1): variant A on MARKET_DATA_PORT, variant B on PREDICTION_PORT. Each
 * is one pipeline (http-server.ts) on node:http: stamp (request id, security headers, metrics, the log
 * line), limits, then the routes below, in order; every refusal and failure goes to its one error
 * renderer. Express is one mount, for /docs: its static files (ranges, conditional GETs) earn it;
 * everything else is a few lines of node:http and skips its routing and response helpers. It is
 * loaded with the first request for /docs: an instance that only answers the API never holds it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type express from 'express';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Variant } from '../domain/variant.js';
import type { Classify } from '../edge/classify.js';
import { ApiError } from '../domain/refusal.js';
import { EXPLORER_PATH } from '../graphql-http/landing-page.js';
import { loadOnce } from '../load-once.js';
import { redactUrl } from '../logging/logger.js';
import type { HttpMetrics } from '../metrics/http-metrics.js';
import { sendJson } from '../rest/envelope.js';
import { type Attributes, activeTracing } from '../telemetry/tracing.js';
import { OPERATIONS_PATH } from '../rest/operation-documents.js';
import { serveExplorer } from './explorer.js';
import { answerOnSocket, createPipeline, type GatewayApp, type GatewayRoute, HTTP_LIMITS, type Step, stamp, whenFinished } from './http-server.js';

interface VariantAppOptions {
  /** Prometheus registry served at /metrics. */
  metrics?: Registry;
  /** Where each request is counted and timed (the service's names and the semantic conventions'). */
  httpMetrics?: HttpMetrics;
  classify: Classify;
  variant: Variant;
  /**
   * The REST facade on plain node:http. Its routes, by path under /api/v1, go into the listener's
   * table; the facade itself answers the rest of /api/v1.
   */
  facade: GatewayRoute & { routes: ReadonlyMap<string, GatewayRoute> };
  /** The facade's GraphQL operations at /graphql/operations/<name> (public, like the OpenAPI document). */
  operationDocuments?: (req: IncomingMessage, res: ServerResponse, name: string) => true;
  /** The account dashboard under /account (its pages set their own CSP). */
  dashboard?: GatewayRoute & { pages: ReadonlyMap<string, GatewayRoute> };
  /** /graphql on plain node:http; rejects with an ApiError for a body it cannot read. */
  graphql: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  /** Serve the built-in GraphiQL at /graphiql (outside production, where introspection is on). */
  explorer?: boolean;
  /** GraphQL subscriptions: WebSocket upgrades of /graphql. */
  subscriptions?: {
    /** Takes the upgrade, or says why not (the listener answers it on the socket). */
    upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): ApiError | undefined;
    close(): Promise<void>;
    /** Subscriptions over Server-Sent Events at /graphql/stream. */
    sse(req: IncomingMessage, res: ServerResponse): Promise<void>;
  };
  openApiDocument: object;
  /** Readiness: `ok` decides the status; `checks` one word per dependency, `details` what an operator reads next. */
  ready: () => Promise<{ ok: boolean; checks: Record<string, string>; details?: Record<string, unknown> }>;
  logger: Logger;
}

const API_PREFIX = '/api/v1';
const OPENAPI_PATH = '/api/v1/openapi.json';
const GRAPHQL_PATH = '/graphql';
const SSE_PATH = '/graphql/stream';
const DASHBOARD_PATH = '/account';
const STARTED = Symbol('started');

type Timed = ServerResponse & { [STARTED]?: number };

/** The path of a URL, without its query string. */
const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
};

/** The two HTML pages that load scripts: /docs, and Sandbox on a GET of /graphql that asks for HTML. */
const isHtmlPage = (req: IncomingMessage) =>
  req.method === 'GET' && (req.url?.startsWith('/docs') || (pathOf(req.url ?? '/') === GRAPHQL_PATH && (req.headers.accept ?? '').includes('text/html')));

/** A JSON answer; true, as a step that answered returns. */
const json = (res: ServerResponse, status: number, value: unknown): true => {
  sendJson(res, status, Buffer.from(JSON.stringify(value)));
  return true;
};

/** A route of the listener's table: answers (true, or the promise of its answer), or passes (false: the table's 404). */
type Route = (req: IncomingMessage, res: ServerResponse, path: string) => boolean | Promise<void>;

/**
 * The listener's one table: exact paths first (each REST route among them, so a REST request meets
 * one dispatch), then prefixes in order. HEAD is served as GET by every route: node's response
 * drops a HEAD's body itself.
 */
interface RouteTable {
  exact: Map<string, Route>;
  prefixes: [string, Route][];
}

function routeOf(table: RouteTable, path: string): Route | undefined {
  const found = table.exact.get(path);
  if (found) return found;
  for (const [prefix, route] of table.prefixes) if (path.startsWith(prefix)) return route;
  return undefined;
}

export function createVariantApp(options: VariantAppOptions): GatewayApp {
  const { variant, logger } = options;

  /** Per answer, once it is sent: its metrics, and a log line when the level logs it. One function for all. */
  function answered(this: Timed): void {
    const seconds = (performance.now() - this[STARTED]!) / 1000;
    // Express, serving /docs, cuts its mount off req.url; originalUrl is the path the client asked for.
    const url = (this.req as { originalUrl?: string }).originalUrl ?? this.req.url ?? '/';
    const route = options.httpMetrics?.routeOf(pathOf(url)) ?? 'other';
    options.httpMetrics?.answered(this, variant, route, seconds);
    activeTracing?.endServer(this, route, this.statusCode);
    if (!logger.isLevelEnabled('info')) return;
    logger.info(
      {
        reqId: this.getHeader('X-Request-Id'),
        variant,
        method: this.req.method,
        url: redactUrl(url),
        status: this.statusCode,
        ms: Math.round(seconds * 1e5) / 100,
      },
      'request',
    );
  }

  /**
   * Step 1: the stamp every answer carries, and its metrics and log line once it is sent. Traced
   * (OTEL_EXPORTER_OTLP_ENDPOINT set), it starts the request's server span and runs the other
   * steps in its context; the span ends with the answer.
   */
  const stamped: Step = (req, res) => {
    stamp(req, isHtmlPage(req), (name, value) => res.setHeader(name, value));
    (res as Timed)[STARTED] = performance.now();
    whenFinished(res, answered); // not res.on('finish'): see http-server.ts
    options.httpMetrics?.begun(res);
    const traced = activeTracing;
    if (!traced) return false;
    traced.serve(req, res, serverSpanAttributes(req, variant), () => afterStamp.handle(req, res));
    return true;
  };

  /** Step 2: limits node does not enforce itself. */
  const limits: Step = (req) => {
    if ((req.url ?? '/').length > HTTP_LIMITS.maxUrlLength) throw new ApiError(414, `URL too long (at most ${HTTP_LIMITS.maxUrlLength} characters)`);
    return false;
  };

  // The contract is public; reading it or the docs needs no key. Express serves /docs and its
  // files, loaded on the first request for them (3.4 MB of RSS an API-only instance does without).
  const docsApp = loadOnce(async () => (await import('./docs.js')).createDocsApp(OPENAPI_PATH));
  const notFound = (req: IncomingMessage) => new ApiError(404, `no endpoint ${req.method} ${pathOf(req.url ?? '/')}; the API lives under /api/v1 (see /docs)`);

  // Bodies that never change, serialized once.
  const openApiBody = Buffer.from(JSON.stringify(options.openApiDocument));
  const healthBody = Buffer.from(JSON.stringify({ status: 'ok' }));
  const constant =
    (body: Buffer): Route =>
    (_req, res) => {
      sendJson(res, 200, body);
      return true;
    };

  const table = routeTable(options, {
    openApi: constant(openApiBody),
    health: constant(healthBody),
    docs: (req, res) =>
      docsApp().then((app) => {
        app(req as express.Request, res as express.Response, (error?: unknown) => (error ? pipeline.fail(res, error) : pipeline.fail(res, notFound(req))));
      }),
  });

  /** Step 3: the route the table names for the path; none is a 404. */
  const routes: Step = (req, res) => {
    const path = pathOf(req.url ?? '/');
    const answered = routeOf(table, path)?.(req, res, path) ?? false;
    if (answered === false) throw notFound(req);
    return answered;
  };

  const pipeline = createPipeline({ variant, classify: options.classify, steps: [stamped, limits, routes] });
  /** The steps after the stamp, which a traced request runs within its server span. */
  const afterStamp = createPipeline({ variant, classify: options.classify, steps: [limits, routes] });
  const handle = pipeline.handle;
  const subscriptions = options.subscriptions;
  if (!subscriptions) return handle;
  return Object.assign(handle, {
    upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
      const refusal =
        pathOf(req.url ?? '/') === GRAPHQL_PATH
          ? subscriptions.upgrade(req, socket, head)
          : new ApiError(404, 'no WebSocket endpoint here; subscriptions are at /graphql');
      if (refusal) answerOnSocket(socket, variant, refusal, req);
    },
    closeUpgraded: () => subscriptions.close(),
  });
}

/** What the server span says of a request from the start: never its query string (a key may be there). */
function serverSpanAttributes(req: IncomingMessage, variant: Variant): Attributes {
  return {
    'http.request.method': req.method,
    'url.path': redactUrl(pathOf(req.url ?? '/')),
    'url.scheme': 'http',
    'network.protocol.version': req.httpVersion,
    'client.address': req.socket.remoteAddress,
    'server.port': req.socket.localPort,
    'mgw.variant': variant,
  };
}

/** The listener's table, from its options; `own` are the routes of the listener itself. */
function routeTable(options: VariantAppOptions, own: { openApi: Route; health: Route; docs: Route }): RouteTable {
  const { facade, subscriptions, operationDocuments, dashboard, metrics } = options;
  const exact = new Map<string, Route>([
    [OPENAPI_PATH, own.openApi],
    [API_PREFIX, facade],
    [GRAPHQL_PATH, (req, res) => options.graphql(req, res)],
    ['/health', own.health],
    [
      '/ready',
      (_req, res) =>
        options.ready().then(({ ok, checks, details }) => {
          json(res, ok ? 200 : 503, { status: ok ? 'ready' : 'not_ready', checks, ...details });
        }),
    ],
    ['/docs', own.docs],
  ]);
  for (const [path, serve] of facade.routes) exact.set(`${API_PREFIX}${path}`, serve);
  if (subscriptions) exact.set(SSE_PATH, (req, res) => subscriptions.sse(req, res));
  if (dashboard) {
    exact.set(DASHBOARD_PATH, dashboard);
    for (const [path, serve] of dashboard.pages) exact.set(path, serve);
  }
  if (metrics) {
    exact.set('/metrics', (_req, res) =>
      metrics.metrics().then((text) => {
        res.setHeader('Content-Type', metrics.contentType);
        res.end(text);
      }),
    );
  }
  const prefixes: [string, Route][] = [[`${API_PREFIX}/`, facade]];
  if (options.explorer) prefixes.push([EXPLORER_PATH, (req, res) => serveExplorer(req, res)]);
  if (operationDocuments) prefixes.push([OPERATIONS_PATH, (req, res, path) => operationDocuments(req, res, path.slice(OPERATIONS_PATH.length))]);
  prefixes.push([`${GRAPHQL_PATH}/`, (req, res) => options.graphql(req, res)]);
  if (dashboard) prefixes.push([`${DASHBOARD_PATH}/`, (req, res) => dashboard(req, res)]);
  prefixes.push(['/docs/', own.docs]);
  return { exact, prefixes };
}
