import request from 'supertest';
import { z } from 'zod';
import { createDocsApp } from '../../../src/http/docs.js';
import { ERROR_TYPES } from '../../../src/domain/refusal.js';
import { buildOpenApiDocument } from '../../../src/rest/openapi.js';
import { intParam } from '../../../src/rest/params.js';
import type { RouteDefinition } from '../../../src/rest/route-table.js';
import { marketDataRoutes } from '../../../src/rest/routes/market-data.js';

// The document is plain JSON; tests walk it loosely.
// biome-ignore lint/suspicious/noExplicitAny: the document is plain JSON; tests walk it loosely.
type Doc = any;

const build = (variant: 'A' | 'B', routes: readonly RouteDefinition[]): Doc =>
  buildOpenApiDocument({ variant, title: 'test', version: '1.0.0', description: 'Test facade.', routes });

/** Follows a local `$ref` (`#/components/...`) once. */
function deref(doc: Doc, node: Doc): Doc {
  if (!node?.$ref) return node;
  return (node.$ref as string)
    .slice(2)
    .split('/')
    .reduce((at: Doc, key) => at[key], doc);
}

describe('buildOpenApiDocument, variant A (market data)', () => {
  const doc = build('A', marketDataRoutes);
  const param = (path: string, name: string) => doc.paths[`/api/v1${path}`].get.parameters.find((p: Doc) => p.name === name);

  it('is OpenAPI 3.1.0 and round-trips through JSON', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
    expect(JSON.stringify(doc)).not.toContain('$schema');
  });

  it('has one path per route of the table, with GET and HEAD', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(marketDataRoutes.map((r) => `/api/v1${r.path}`).sort());
    for (const route of marketDataRoutes) {
      const item = doc.paths[`/api/v1${route.path}`];
      expect(Object.keys(item)).toEqual(['get', 'head']);
      expect(Object.keys(item.head.responses)).toEqual(Object.keys(item.get.responses));
      expect(JSON.stringify(item.head.responses)).not.toContain('"content"');
      expect(item.get.summary).toBe(route.summary);
      expect(item.get.description).toContain(route.description);
    }
    expect(doc.paths['/api/v1/markets'].get.operationId).toBe('getMarkets');
    expect(doc.paths['/api/v1/brief'].get.operationId).toBe('getBrief');
    expect(doc.paths['/api/v1/brief'].head.operationId).toBe('headBrief');
  });

  it('lists every parameter of each route as a query parameter with its requiredness', () => {
    for (const route of marketDataRoutes) {
      const params = doc.paths[`/api/v1${route.path}`].get.parameters;
      expect(params.map((p: Doc) => p.name)).toEqual(route.params.map((p) => p.name));
      for (const spec of route.params) {
        const p = params.find((q: Doc) => q.name === spec.name);
        expect(p).toMatchObject({ in: 'query', required: spec.required, description: spec.description });
      }
    }
  });

  it('carries enum values, defaults, integer bounds and examples', () => {
    expect(param('/markets', 'type').schema).toEqual({ type: 'string', enum: ['crypto', 'forex', 'stocks'] });
    expect(param('/markets', 'status').schema.enum).toEqual(['active', 'inactive']);
    expect(param('/markets', 'limit').schema).toEqual({ type: 'integer', minimum: 1, maximum: 500, default: 100 });
    expect(param('/markets', 'offset').schema).toEqual({ type: 'integer', minimum: 0, default: 0 });
    expect(param('/brief', 'symbols')).toMatchObject({ required: true, example: 'BTC/USD,ETH/USD' });
    expect(param('/brief', 'limit').schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 10 });
    expect(param('/brief', 'interval').schema).toEqual({ type: 'string', enum: ['5m', '15m', '1h', '4h', '1d'], default: '1h' });
    expect(param('/alerts', 'status').schema.enum).toEqual(['active', 'triggered', 'expired']);
    expect(param('/alerts', 'symbol').required).toBe(false);
  });

  it('describes the 200 body in the success envelope, with rate-limit headers', () => {
    for (const route of marketDataRoutes) {
      const ok = doc.paths[`/api/v1${route.path}`].get.responses['200'];
      const schema = ok.content['application/json'].schema;
      expect(schema.properties.success).toEqual({ type: 'boolean', const: true });
      expect(schema.properties.data).toBeDefined();
      expect(schema.required).toEqual(expect.arrayContaining(['success', 'data']));
      const cached = route.cache ? ['Cache-Control', 'ETag'] : [];
      expect(Object.keys(ok.headers).sort()).toEqual([...cached, 'X-Ignored-Parameters', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']);
      // Cached routes: 304 with the same validators, and If-None-Match accepted.
      const responses = doc.paths[`/api/v1${route.path}`].get.responses;
      expect('304' in responses).toBe(Boolean(route.cache));
      if (route.cache) expect(Object.keys(responses['304'].headers)).toEqual(expect.arrayContaining(['ETag', 'Cache-Control']));
    }
    const markets = doc.paths['/api/v1/markets'].get.responses['200'].content['application/json'].schema;
    expect(markets.properties.total.type).toBe('integer');
    expect(markets.properties.data.items.properties.price.type).toEqual(['number', 'null']);
  });

  it('documents the D3/D5 errors against one shared Error schema in the success envelope', () => {
    const error = doc.components.schemas.Error;
    expect(error.required).toEqual(['success', 'error']);
    expect(error.properties.success).toEqual({ type: 'boolean', const: false });
    const detail = error.properties.error;
    expect(detail.required).toEqual(['code', 'type', 'message']);
    expect(detail.properties.code.type).toBe('integer');
    expect(detail.properties.message.type).toBe('string');
    expect(detail.properties.type.enum).toEqual(expect.arrayContaining(Object.values(ERROR_TYPES)));

    for (const route of marketDataRoutes) {
      const responses = doc.paths[`/api/v1${route.path}`].get.responses;
      const errors = ['400', '401', '403', '404', '408', '413', '414', '429', '431', '500', '503'];
      expect(Object.keys(responses).sort()).toEqual(['200', ...(route.cache ? ['304'] : []), ...errors].sort());
      for (const status of errors) {
        const response = deref(doc, responses[status]);
        const json = response.content['application/json'];
        expect(json.schema).toEqual({ $ref: '#/components/schemas/Error' });
        expect(json.example.error).toMatchObject({ code: Number(status), type: ERROR_TYPES[Number(status) as 400] });
      }
    }
  });

  it('puts rate-limit headers on 400 and 429, and Retry-After on 429, as shared headers', () => {
    const headers = doc.components.headers;
    for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After']) {
      expect(headers[name].schema.type).toBe('integer');
    }
    expect(headers['X-RateLimit-Reset'].description).toMatch(/epoch seconds/);
    expect(headers['X-RateLimit-Limit'].description).toMatch(/binding window/);
    const responses = doc.components.responses;
    expect(Object.keys(responses.BadRequest.headers)).toEqual(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']);
    expect(responses.TooManyRequests.headers['Retry-After']).toEqual({ $ref: '#/components/headers/Retry-After' });
    expect(responses.MethodNotAllowed.headers.Allow).toBeDefined();
  });

  it('secures every operation with a bearer key only', () => {
    expect(doc.components.securitySchemes).toEqual({ bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }) });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
  });

  it('opens with a short intro and explains envelope, auth, quotas and errors where an operation refers to them', () => {
    const text: string = doc.info.description;
    expect(text.startsWith('Test facade.')).toBe(true);
    expect(text.split('\n').length).toBeLessThanOrEqual(6); // the operations come first on /docs
    expect(text).toContain('"success": false');
    expect(doc.components.schemas.Error.description).toMatch(/"success": true, "data"[\s\S]*key \(401\), path \(404[\s\S]*parameters \(400\)/);
    expect(doc.components.securitySchemes.bearerAuth.description).toMatch(/Authorization: Bearer <key>.*401/);
    expect(doc.components.responses.TooManyRequests.description).toMatch(/free 10 \/ 1 000.*UTC clock.*binding window/);
    expect(doc.components.responses.TooManyRequests.content['application/json'].example.error.message).toBe('Rate limit exceeded: wait `Retry-After` seconds.');
    // The lists' order is in their own operation.
    for (const path of ['/markets', '/alerts']) expect(doc.paths[`/api/v1${path}`].get.description).toMatch(/ordered by|first/i);
  });

  it('names its server (the listener it was read from, or the base given), its license, and plans when given', () => {
    expect(doc.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
    const withExtras: Doc = buildOpenApiDocument({
      variant: 'A',
      title: 't',
      version: '1',
      description: 'd',
      routes: marketDataRoutes,
      serverUrl: 'http://127.0.0.1:4000',
      planByPath: { '/brief': 'pro, enterprise' },
    });
    expect(withExtras.servers).toEqual([{ url: 'http://127.0.0.1:4000' }]);
    expect(withExtras.paths['/api/v1/brief'].get.description).toContain('**Plans:** pro, enterprise');
  });
});

describe('buildOpenApiDocument, variant B (prediction markets)', () => {
  // A stand-in table: the builder reads only path, texts, params and responseSchema.
  const fakeRoute = (path: string, params: RouteDefinition['params'], responseSchema: z.ZodType): RouteDefinition => ({
    path,
    summary: `summary of ${path}`,
    description: `description of ${path}`,
    params,
    operation: {} as RouteDefinition['operation'],
    variables: () => ({}),
    reshape: () => ({}),
    responseSchema,
  });
  const routes = [
    fakeRoute('/markets', [], z.object({ ok: z.literal(true), count: z.number().int(), markets: z.array(z.object({ question: z.string() })) })),
    fakeRoute('/alerts', [intParam('limit', { min: 1, default: 20 }, 'number of alerts')], z.object({ ok: z.literal(true), count: z.number().int() })),
  ];
  const doc = build('B', routes);

  it('uses the ok envelope for the Error schema and the examples', () => {
    const error = doc.components.schemas.Error;
    expect(error.required).toEqual(['ok', 'error']);
    expect(error.properties.ok).toEqual({ type: 'boolean', const: false });
    expect(error.properties.success).toBeUndefined();
    expect(error.properties.error.required).toEqual(['code', 'type', 'message']);
    expect(doc.components.responses.Forbidden.content['application/json'].example).toMatchObject({ ok: false, error: { code: 403 } });
    expect(doc.info.description).toContain('"ok": false');
  });

  it('takes the key as a bearer header or the apikey query parameter', () => {
    expect(doc.components.securitySchemes.apiKey).toEqual(expect.objectContaining({ type: 'apiKey', in: 'query', name: 'apikey' }));
    expect(doc.components.securitySchemes.bearerAuth.scheme).toBe('bearer');
    expect(doc.security).toEqual([{ bearerAuth: [] }, { apiKey: [] }]);
  });

  it('derives paths and parameters from the table alone; no 400 where nothing can be refused', () => {
    expect(Object.keys(doc.paths)).toEqual(['/api/v1/markets', '/api/v1/alerts']);
    expect(doc.paths['/api/v1/markets'].get.parameters).toEqual([]);
    expect(doc.paths['/api/v1/markets'].get.responses['400']).toBeUndefined();
    expect(doc.paths['/api/v1/alerts'].get.parameters[0].schema).toEqual({ type: 'integer', minimum: 1, default: 20 });
    expect(doc.paths['/api/v1/alerts'].get.responses['400']).toEqual({ $ref: '#/components/responses/BadRequest' });
    expect(doc.paths['/api/v1/markets'].get.responses['200'].content['application/json'].schema.properties.ok.const).toBe(true);
  });
});

describe('the /docs app', () => {
  const app = createDocsApp('/api/v1/openapi.json');

  it.each(['/docs', '/docs/'])('GET %s serves a page that loads only same-origin /docs assets', async (path) => {
    const res = await request(app).get(path).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
    expect(res.text).not.toMatch(/https?:\/\//);
    expect(res.text).not.toMatch(/<script>/); // no inline script
    const refs = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.sort()).toEqual([
      '/docs/assets/swagger-ui-bundle.js',
      '/docs/assets/swagger-ui-standalone-preset.js',
      '/docs/assets/swagger-ui.css',
      '/docs/init.js',
    ]);
  });

  it('serves every referenced asset with a JS or CSS content type', async () => {
    const page = await request(app).get('/docs');
    for (const [, url] of page.text.matchAll(/(?:src|href)="([^"]+)"/g)) {
      const res = await request(app).get(url!).expect(200);
      expect(res.headers['content-type']).toMatch(url!.endsWith('.css') ? /^text\/css/ : /^(text|application)\/javascript/);
      if (url!.startsWith('/docs/assets/')) expect(res.headers['cache-control']).toMatch(/max-age=\d+/);
      expect(res.headers['x-powered-by']).toBeUndefined(); // Express does not announce itself
    }
  });

  it('initialises Swagger UI with the document path and without the public validator', async () => {
    const res = await request(app).get('/docs/init.js').expect(200);
    expect(res.text).toContain('url: "/api/v1/openapi.json"');
    expect(res.text).toContain('validatorUrl: null');
    expect(res.text).not.toMatch(/https?:\/\//);
  });

  it('serves nothing else from the package (e.g. its demo index.html)', async () => {
    await request(app).get('/docs/assets/index.html').expect(404);
    await request(app).get('/docs/assets/').expect(404);
    await request(app).get('/docs/assets/../package.json').expect(404);
  });
});
