/**
 * One listener per variant (D1): variant A on MARKET_DATA_PORT, variant B on PREDICTION_PORT.
 * Both serve /graphql, /health, /ready, /docs, /metrics through Express; /api/v1 is the variant's
 * facade, which legacy clients poll, so its requests skip Express altogether (its routing and
 * response helpers cost more than the facade's own work).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Registry } from 'prom-client';
import type { HttpMetrics } from '../metrics/http-metrics.js';
import type { DegradedAnswers } from '../edge/degraded.js';
import express, { type ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import { redactUrl } from '../logging/logger.js';
import { sendError } from '../rest/envelope.js';
import type { Variant } from '../domain/variant.js';
import { docsRouter } from './docs.js';
import { serveExplorer } from './explorer.js';
import { EXPLORER_PATH } from '../graphql-http/landing-page.js';
import { ApiError } from '../edge/errors.js';
import { type GatewayApp, HTTP_LIMITS } from './http-server.js';
import { JSON_ONLY_CSP, SECURITY_HEADERS } from './security-headers.js';

interface VariantAppOptions {
  /** Prometheus registry served at /metrics. */
  metrics?: Registry;
  /** Where each answer is counted and timed. */
  httpMetrics?: HttpMetrics;
  degraded: DegradedAnswers;
  variant: Variant;
  /** The REST facade on plain node:http: `url` is the path and query under /api/v1. */
  facade: (req: IncomingMessage, res: ServerResponse, url: string) => Promise<void>;
  /** /graphql on plain node:http; throws an ApiError for a body it cannot read. */
  graphql: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  /** Serve the built-in GraphiQL at /graphiql (outside production, where introspection is on). */
  explorer?: boolean;
  /** GraphQL subscriptions: WebSocket upgrades of /graphql. */
  subscriptions?: {
    upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
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
const STARTED = Symbol('started');

const isHtmlPage = (req: IncomingMessage) =>
  req.method === 'GET' && (req.url?.startsWith('/docs') || (req.url?.startsWith(GRAPHQL_PATH) && !req.url.includes('query=')));

export function createVariantApp(options: VariantAppOptions): GatewayApp {
  const { variant, logger } = options;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  /** Per answer, once it is sent: its metrics, and a log line when the level logs it. One function for all. */
  function answered(this: ServerResponse & { [STARTED]?: number }): void {
    const seconds = (performance.now() - this[STARTED]!) / 1000;
    // Express trims its mount prefix from req.url; originalUrl is what the client asked for.
    const url = (this.req as IncomingMessage & { originalUrl?: string }).originalUrl ?? this.req.url ?? '/';
    const q = url.indexOf('?');
    options.httpMetrics?.observe(variant, options.httpMetrics.routeOf(q < 0 ? url : url.slice(0, q)), this.statusCode, seconds);
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

  /** Request id and security headers on every answer; `answered` when it is sent. */
  function stamp(req: IncomingMessage, res: ServerResponse): void {
    const header = req.headers['x-request-id'];
    const id = typeof header === 'string' && /^[\w.-]{1,64}$/.test(header) ? header : randomUUID();
    res.setHeader('X-Request-Id', id);
    for (const [name, value] of SECURITY_HEADERS) res.setHeader(name, value);
    // The API answers JSON only; the two HTML pages (/docs, Sandbox on GET /graphql) load scripts.
    if (!isHtmlPage(req)) res.setHeader('Content-Security-Policy', JSON_ONLY_CSP);
    (res as ServerResponse & { [STARTED]?: number })[STARTED] = performance.now();
    res.on('finish', answered); // each response is new: no need for once()'s wrapper
  }

  if (options.metrics) {
    const registry = options.metrics;
    app.get('/metrics', async (_req, res) => {
      res.type(registry.contentType).send(await registry.metrics());
    });
  }
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/ready', async (_req, res) => {
    const { ok, checks, details } = await options.ready();
    res.status(ok ? 200 : 503).json({ status: ok ? 'ready' : 'not_ready', checks, ...details });
  });

  // The contract is public; reading it needs no key.
  app.get('/api/v1/openapi.json', (_req, res) => {
    res.json(options.openApiDocument);
  });
  app.use(docsRouter('/api/v1/openapi.json'));
  // `/api/v1` alone (and anything the fast path does not take) still reaches the facade here.
  app.use(API_PREFIX, (req, res) => void options.facade(req, res, req.url));

  app.use((req, res) => {
    sendError(res, variant, new ApiError(404, `no endpoint ${req.method} ${req.path}; the API lives under /api/v1 (see /docs)`));
  });

  const onError: ErrorRequestHandler = (error, _req, res, _next) => {
    if (res.headersSent) return;
    if (error instanceof ApiError) return sendError(res, variant, error);
    const status = typeof error?.status === 'number' ? error.status : 500;
    if (status === 413) return sendError(res, variant, new ApiError(413, 'request body too large'));
    if (status >= 400 && status < 500) {
      // body-parser errors (malformed JSON and the like): say what, never how it failed inside.
      return sendError(res, variant, new ApiError(400, error.type === 'entity.parse.failed' ? 'malformed JSON body' : 'bad request'));
    }
    const unavailable = options.degraded.answerFor('http', error);
    if (unavailable) return sendError(res, variant, unavailable);
    logger.error({ err: error }, 'unhandled request error');
    sendError(res, variant, new ApiError(500, 'internal error'));
  };
  app.use(onError);

  const handle: RequestListener = (req, res) => {
    stamp(req, res);
    const url = req.url ?? '/';
    if (url.length > HTTP_LIMITS.maxUrlLength) {
      sendError(res, variant, new ApiError(414, `URL too long (at most ${HTTP_LIMITS.maxUrlLength} characters)`));
      return;
    }
    if (url.startsWith(`${API_PREFIX}/`) && !url.startsWith(OPENAPI_PATH)) {
      void options.facade(req, res, url.slice(API_PREFIX.length));
      return;
    }
    if (options.explorer && url.startsWith(EXPLORER_PATH) && serveExplorer(req, res)) return;
    if (options.subscriptions && (url === SSE_PATH || url.startsWith(`${SSE_PATH}?`))) {
      options.subscriptions.sse(req, res).catch((error: unknown) => onError(error, req as express.Request, res as express.Response, () => undefined));
      return;
    }
    if (url === GRAPHQL_PATH || url.startsWith(`${GRAPHQL_PATH}?`) || url.startsWith(`${GRAPHQL_PATH}/`)) {
      options.graphql(req, res).catch((error: unknown) => onError(error, req as express.Request, res as express.Response, () => undefined));
      return;
    }
    app(req, res);
  };
  const subscriptions = options.subscriptions;
  if (!subscriptions) return handle;
  return Object.assign(handle, {
    upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
      const path = (req.url ?? '/').split('?', 1)[0];
      if (path !== GRAPHQL_PATH) {
        socket.end(`HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
        return;
      }
      subscriptions.upgrade(req, socket, head);
    },
    closeUpgraded: () => subscriptions.close(),
  });
}
