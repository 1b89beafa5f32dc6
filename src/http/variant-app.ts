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
import { ApiError } from '../edge/errors.js';
import { EXPLORER_PATH } from '../graphql-http/landing-page.js';
import { loadOnce } from '../load-once.js';
import { redactUrl } from '../logging/logger.js';
import type { HttpMetrics } from '../metrics/http-metrics.js';
import { sendJson } from '../rest/envelope.js';
import { OPERATIONS_PATH } from '../rest/operation-documents.js';
import { serveExplorer } from './explorer.js';
import { whenFinished } from './response-finished.js';
import { answerOnSocket, createPipeline, type GatewayApp, type GatewayRoute, HTTP_LIMITS, type Step, stamp } from './http-server.js';

interface VariantAppOptions {
  /** Prometheus registry served at /metrics. */
  metrics?: Registry;
  /** Where each answer is counted and timed. */
  httpMetrics?: HttpMetrics;
  classify: Classify;
  variant: Variant;
  /** The REST facade on plain node:http: `url` is the path and query under /api/v1. */
  facade: (req: IncomingMessage, res: ServerResponse, url: string) => Promise<void>;
  /** The facade's GraphQL operations at /graphql/operations/<name> (public, like the OpenAPI document). */
  operationDocuments?: (req: IncomingMessage, res: ServerResponse, name: string) => true;
  /** The account dashboard under /account (its pages set their own CSP). */
  portal?: GatewayRoute;
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
const PORTAL_PATH = '/account';
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
  sendJson(res, status, Buffer.from(JSON.stringify(value)), res.req.method === 'HEAD');
  return true;
};

export function createVariantApp(options: VariantAppOptions): GatewayApp {
  const { variant, logger } = options;

  /** Per answer, once it is sent: its metrics, and a log line when the level logs it. One function for all. */
  function answered(this: Timed): void {
    const seconds = (performance.now() - this[STARTED]!) / 1000;
    // Express, serving /docs, cuts its mount off req.url; originalUrl is the path the client asked for.
    const url = (this.req as { originalUrl?: string }).originalUrl ?? this.req.url ?? '/';
    options.httpMetrics?.observe(variant, options.httpMetrics.routeOf(pathOf(url)), this.statusCode, seconds);
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

  /** Step 1: the stamp every answer carries, and its metrics and log line once it is sent. */
  const stamped: Step = (req, res) => {
    stamp(req, isHtmlPage(req), (name, value) => res.setHeader(name, value));
    (res as Timed)[STARTED] = performance.now();
    whenFinished(res, answered); // not res.on('finish'): see response-finished.ts
    return false;
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
  const constant = (res: ServerResponse, body: Buffer): true => {
    sendJson(res, 200, body, res.req.method === 'HEAD');
    return true;
  };

  /** Step 3: the routes, first match answers. */
  const routes: Step = (req, res) => {
    const url = req.url ?? '/';
    const path = pathOf(url);
    if (path === OPENAPI_PATH) return constant(res, openApiBody);
    if (url.startsWith(API_PREFIX) && (path === API_PREFIX || url.startsWith(`${API_PREFIX}/`) || url.startsWith(`${API_PREFIX}?`))) {
      return options.facade(req, res, url.slice(API_PREFIX.length) || '/');
    }
    if (options.explorer && path.startsWith(EXPLORER_PATH) && serveExplorer(req, res)) return true;
    if (options.subscriptions && path === SSE_PATH) return options.subscriptions.sse(req, res);
    if (options.operationDocuments && path.startsWith(OPERATIONS_PATH)) return options.operationDocuments(req, res, path.slice(OPERATIONS_PATH.length));
    if (path === GRAPHQL_PATH || path.startsWith(`${GRAPHQL_PATH}/`)) return options.graphql(req, res);
    if (options.portal && (path === PORTAL_PATH || path.startsWith(`${PORTAL_PATH}/`))) return options.portal(req, res);
    if (path === '/health') return constant(res, healthBody);
    if (path === '/ready') {
      return options.ready().then(({ ok, checks, details }) => {
        json(res, ok ? 200 : 503, { status: ok ? 'ready' : 'not_ready', checks, ...details });
      });
    }
    if (path === '/metrics' && options.metrics) {
      const registry = options.metrics;
      return registry.metrics().then((text) => {
        res.setHeader('Content-Type', registry.contentType);
        res.end(text);
      });
    }
    if (path === '/docs' || path.startsWith('/docs/')) {
      return docsApp().then((app) => {
        app(req as express.Request, res as express.Response, (error?: unknown) => (error ? pipeline.fail(res, error) : pipeline.fail(res, notFound(req))));
      });
    }
    throw notFound(req);
  };

  const pipeline = createPipeline({ variant, classify: options.classify, steps: [stamped, limits, routes] });
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
