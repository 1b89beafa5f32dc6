/**
 * One Express app per listener (D1): variant A on MARKET_DATA_PORT, variant B on PREDICTION_PORT.
 * Both serve /graphql, /health, /ready, /docs; /api/v1 is the variant's facade.
 */
import { randomUUID } from 'node:crypto';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { redactUrl } from '../logging/logger.js';
import { sendError } from '../rest/envelope.js';
import type { Variant } from '../rest/route-table.js';
import { docsRouter } from './docs.js';
import { ApiError } from './errors.js';

export interface VariantAppOptions {
  variant: Variant;
  facade: RequestHandler;
  graphql: RequestHandler;
  openApiDocument: object;
  ready: () => Promise<{ ok: boolean; checks: Record<string, string> }>;
  logger: Logger;
}

export function createVariantApp(options: VariantAppOptions): express.Express {
  const { variant, logger } = options;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    const id = (typeof req.headers['x-request-id'] === 'string' && /^[\w.-]{1,64}$/.test(req.headers['x-request-id'])
      ? req.headers['x-request-id']
      : randomUUID());
    res.setHeader('X-Request-Id', id);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info({ reqId: id, variant, method: req.method, url: redactUrl(req.originalUrl), status: res.statusCode, ms: Math.round(ms * 100) / 100 }, 'request');
    });
    next();
  });

  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/ready', async (_req, res) => {
    const { ok, checks } = await options.ready();
    res.status(ok ? 200 : 503).json({ status: ok ? 'ready' : 'not_ready', checks });
  });

  app.use('/graphql', express.json({ limit: '100kb' }), options.graphql);

  // The contract is public; reading it needs no key.
  app.get('/api/v1/openapi.json', (_req, res) => {
    res.json(options.openApiDocument);
  });
  app.use(docsRouter('/api/v1/openapi.json'));
  app.use('/api/v1', options.facade);

  app.use((req, res) => {
    sendError(res, variant, new ApiError(404, `no endpoint ${req.method} ${req.path}; the API lives under /api/v1 (see /docs)`));
  });

  const onError: ErrorRequestHandler = (error, _req, res, _next) => {
    if (res.headersSent) return;
    const status = typeof error?.status === 'number' ? error.status : 500;
    if (status === 413) return sendError(res, variant, new ApiError(413, 'request body too large'));
    if (status >= 400 && status < 500) {
      // body-parser errors (malformed JSON and the like): say what, never how it failed inside.
      return sendError(res, variant, new ApiError(400, error.type === 'entity.parse.failed' ? 'malformed JSON body' : 'bad request'));
    }
    logger.error({ err: error }, 'unhandled request error');
    sendError(res, variant, new ApiError(500, 'internal error'));
  };
  app.use(onError);
  return app;
}
