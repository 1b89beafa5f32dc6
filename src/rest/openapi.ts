/**
 * The OpenAPI 3.1 document of one REST facade, derived from its route table: paths, parameters
 * and 200 bodies come from the table's zod schemas, so the document cannot drift from what the
 * facade validates and answers. Errors, headers and security follow D3, D4 and D5.
 */
import { z } from 'zod';
import { ERROR_TYPES } from '../domain/refusal.js';
import type { Deprecation, Deprecations } from './deprecations.js';
import { routeIdOf } from './route-table.js';
import type { RouteOperation } from './operation-documents.js';
import type { ParamSpec } from './params.js';
import type { RouteDefinition } from './route-table.js';
import { WEBHOOK_DELIVERY_NOTES, type WebhookEventDeclarations } from './webhook-events.js';
import type { Variant } from '../domain/variant.js';

interface OpenApiOptions {
  variant: Variant;
  title: string;
  version: string;
  /** Lead paragraph of `info.description`; a few lines of conventions follow it (the details are in the document's parts). */
  description: string;
  routes: readonly RouteDefinition[];
  /** Absolute base (e.g. `http://127.0.0.1:4000`); without it, clients use the document's own origin. */
  serverUrl?: string;
  /** Route path (as in the table, e.g. `/brief`) -> which plans may call it, shown in the operation. */
  planByPath?: Record<string, string>;
  /** Events the service sends to its users' endpoints: the 3.1 `webhooks` section. */
  webhooks?: WebhookEventDeclarations | undefined;
  /** Route path -> the GraphQL operation it runs, as served: each operation's `x-graphql-operation`. */
  operations?: Record<string, RouteOperation>;
  /** Routes declared deprecated, by route id (`A GET /api/v1/brief`); with `enforceSunset`, a 410 past the sunset. */
  deprecations?: Deprecations;
  enforceSunset?: boolean;
}

/** What the route table cannot say about one route: its operation and its deprecation. */
interface RouteExtras {
  plan?: string | undefined;
  operation?: RouteOperation | undefined;
  deprecation?: Deprecation | undefined;
  enforceSunset?: boolean | undefined;
}

type Json = Record<string, unknown>;

const API_PREFIX = '/api/v1';
const ref = (kind: 'schemas' | 'headers' | 'responses' | 'parameters', name: string) => ({ $ref: `#/components/${kind}/${name}` });

/**
 * Error statuses an operation can answer: the edge's (D3) and the listener's limits, which are
 * answered in the same envelope before any route is known. 405 is per path, not per operation,
 * so it is only described.
 */
const OPERATION_ERRORS = {
  400: { name: 'BadRequest', text: 'Bad request: a parameter is invalid, missing or given twice; the message says what is allowed.' },
  408: { name: 'RequestTimeout', text: 'Request timeout: the request was not received whole in time.' },
  413: { name: 'PayloadTooLarge', text: 'Payload too large: the request body is over the limit.' },
  414: { name: 'UriTooLong', text: 'URI too long: the path and query are over 8 KB.' },
  431: { name: 'HeadersTooLarge', text: 'Request header fields too large: the request line and headers are over 16 KB, or over 1 000 lines.' },
  401: {
    name: 'Unauthorized',
    text: 'Unauthorized: the API key is missing, malformed, unknown, revoked or expired, or its account is disabled; the message says which.',
  },
  403: { name: 'Forbidden', text: "Forbidden: the account's plan does not include this endpoint; the message names the plan and how to get it." },
  404: { name: 'NotFound', text: 'Not found: a resource named in the request does not exist (e.g. an unknown symbol).' },
  429: { name: 'TooManyRequests', text: 'Rate limit exceeded: wait `Retry-After` seconds.' },
  500: { name: 'InternalError', text: 'Internal error.' },
  503: { name: 'ServiceUnavailable', text: 'Service unavailable: a dependency (database, cache) is down.' },
} as const;

const RATE_HEADERS = {
  'X-RateLimit-Limit': 'Limit of the binding window (the quota window with the fewest units left; on a tie, the one that resets first).',
  'X-RateLimit-Remaining': 'Units left in the binding window after this request.',
  'X-RateLimit-Reset': 'When the binding window resets, in Unix epoch seconds (UTC).',
} as const;

/** Variant facts that the route table cannot carry. */
const VARIANT_NOTES: Record<Variant, { envelope: string; auth: string; quotas: string }> = {
  A: {
    envelope: 'A success is `{"success": true, "data": ...}`, with `total` (every match, not just the page) for lists.',
    auth: 'The key goes in `Authorization: Bearer <key>`.',
    quotas: 'Per minute / per day: free 10 / 1 000 (only `/markets`), pro 60 / 50 000, enterprise unlimited.',
  },
  B: {
    envelope: 'A success is `{"ok": true, ...}` with the fields listed per endpoint.',
    auth: 'The key goes in `Authorization: Bearer <key>` or `?apikey=<key>`.',
    quotas: 'Plan pro: 60 requests per minute, no daily limit. Every endpoint needs pro.',
  },
};

const envelopeKey = (variant: Variant) => (variant === 'A' ? 'success' : 'ok');

/**
 * zod's JSON Schema (draft 2020-12, which OpenAPI 3.1 uses as is), minus what does not belong
 * inside an OpenAPI document: `$schema`, and the safe-integer bounds `.int()` implies.
 */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Json {
  const converted = z.toJSONSchema(schema, { io }) as Json;
  // `#/$defs/...` refs would point at the OpenAPI document's root, where there are none.
  if ('$defs' in converted) throw new Error('OpenAPI: route schemas must not need $defs (recursive or registered schemas)');
  return clean(converted) as Json;
}

function clean(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clean);
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === '$schema') continue;
    if (key === 'maximum' && child === Number.MAX_SAFE_INTEGER) continue;
    if (key === 'minimum' && child === Number.MIN_SAFE_INTEGER) continue;
    out[key] = clean(child);
  }
  return out;
}

/** `/markets` -> getMarkets, `/price-alerts/{id}` -> getPriceAlertsId. */
function operationIdOf(path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return `get${words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')}`;
}

function parameterOf(param: ParamSpec): Json {
  const schema = jsonSchemaOf(param.schema, 'input');
  if (param.default !== undefined && !('default' in schema)) schema.default = param.default;
  return {
    name: param.name,
    in: 'query',
    description: param.description,
    required: param.required,
    schema,
    ...(param.example === undefined ? {} : { example: param.example }),
  };
}

/** The answer of a HEAD: the same status and headers as the GET, without a body. */
function withoutBodies(responses: Json): Json {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      const { content: _body, ...rest } = response as Json;
      return [status, '$ref' in rest ? { description: `As GET (${status}), without a body.` } : rest];
    }),
  );
}

/** The sentence a deprecated operation's description ends with. */
function deprecationNote(deprecation: Deprecation, operation: RouteOperation | undefined, enforceSunset: boolean | undefined): string {
  const day = (date: Date) => date.toISOString().replace('T00:00:00.000Z', '').replace('.000Z', 'Z');
  return [
    `**Deprecated** since ${day(deprecation.deprecated)}`,
    deprecation.sunset ? `; sunset ${day(deprecation.sunset)}${enforceSunset ? ', after which it answers 410 Gone' : ''}` : '',
    operation ? `. Move to its GraphQL operation \`${operation.name}\` (\`${operation.href}\`) on \`/graphql\`` : '',
    deprecation.link ? `. See ${deprecation.link}` : '',
    '.',
  ].join('');
}

/** Headers of a route's own answers (200, 304): its operation, and its deprecation. */
function routeHeaders(operation: RouteOperation | undefined, deprecation: Deprecation | undefined): Json {
  return {
    'X-Ignored-Parameters': {
      description:
        'Query parameters the route does not read, which are ignored (D6), percent-encoded, comma-separated: a typo such as `lmit` shows here. Absent when every parameter was read.',
      schema: { type: 'string' },
    },
    ...(operation
      ? { 'X-GraphQL-Operation': { description: 'The GraphQL operation that produced the answer.', schema: { type: 'string', const: operation.name } } }
      : {}),
    ...(deprecation
      ? {
          Deprecation: { description: 'RFC 9745: when the route was deprecated, `@<Unix epoch seconds>`.', schema: { type: 'string', pattern: '^@-?[0-9]+$' } },
          ...(deprecation.sunset ? { Sunset: { description: 'RFC 8594: when the route stops answering, an HTTP-date.', schema: { type: 'string' } } } : {}),
          Link: {
            description: 'RFC 8288: `rel="successor-version"` (the GraphQL operation), `rel="deprecation"` and `rel="sunset"` (the operator\'s page).',
            schema: { type: 'string' },
          },
        }
      : {}),
  };
}

function operationsOf(route: RouteDefinition, extras: RouteExtras): Json {
  const { plan, operation, deprecation } = extras;
  const errors = Object.entries(OPERATION_ERRORS)
    // Without parameters there is nothing to refuse with a 400 (D6 ignores unknown ones).
    .filter(([status]) => status !== '400' || route.params.length > 0)
    .map(([status, { name }]) => [status, ref('responses', name)]);
  // Routes over shared data are cached: a strong ETag, and 304 for a matching If-None-Match.
  const cacheHeaders = route.cache ? { ETag: ref('headers', 'ETag'), 'Cache-Control': ref('headers', 'Cache-Control') } : {};
  const ownHeaders = routeHeaders(operation, deprecation);
  const responses: Json = {
    200: {
      description: 'OK',
      headers: { ...rateHeaderRefs(), ...cacheHeaders, ...ownHeaders },
      content: { 'application/json': { schema: jsonSchemaOf(route.responseSchema, 'output') } },
    },
    ...(route.cache
      ? {
          304: {
            description: 'Not modified: the answer is the one whose ETag was sent in If-None-Match.',
            headers: { ...rateHeaderRefs(), ...cacheHeaders, ...ownHeaders },
          },
        }
      : {}),
    ...Object.fromEntries(errors),
    ...(deprecation?.sunset && extras.enforceSunset ? { 410: ref('responses', 'Gone') } : {}),
  };
  const parameters = [...route.params.map(parameterOf), ...(route.cache ? [ref('parameters', 'IfNoneMatch')] : [])];
  const description = [
    route.description,
    ...(plan === undefined ? [] : [`**Plans:** ${plan}`]),
    ...(deprecation ? [deprecationNote(deprecation, operation, extras.enforceSunset)] : []),
  ].join('\n\n');
  const common = {
    ...(deprecation ? { deprecated: true } : {}),
    ...(operation ? { 'x-graphql-operation': operation } : {}),
  };
  return {
    get: { operationId: operationIdOf(route.path), summary: route.summary, description, parameters, responses, ...common },
    head: {
      operationId: operationIdOf(route.path).replace(/^get/, 'head'),
      summary: `${route.summary} (headers only)`,
      description: 'As GET, without a body: the same checks, quota and headers.',
      parameters,
      responses: withoutBodies(responses),
      ...common,
    },
  };
}

const rateHeaderRefs = (): Json => Object.fromEntries(Object.keys(RATE_HEADERS).map((name) => [name, ref('headers', name)]));

function errorSchema(variant: Variant): Json {
  const key = envelopeKey(variant);
  return {
    type: 'object',
    description: errorsDescription(variant),
    required: [key, 'error'],
    properties: {
      [key]: { type: 'boolean', const: false },
      error: {
        type: 'object',
        required: ['code', 'type', 'message'],
        properties: {
          code: { type: 'integer', description: 'The HTTP status.' },
          type: { type: 'string', enum: Object.values(ERROR_TYPES), description: 'Stable lower-case name of the status.' },
          message: { type: 'string', description: 'For a person: what was wrong and what is allowed. Never echoes a key.' },
        },
      },
    },
  };
}

function errorResponse(variant: Variant, status: keyof typeof ERROR_TYPES, text: string, headers?: Json, description = text): Json {
  return {
    description,
    ...(headers ? { headers } : {}),
    content: {
      'application/json': {
        schema: ref('schemas', 'Error'),
        example: { [envelopeKey(variant)]: false, error: { code: status, type: ERROR_TYPES[status], message: text } },
      },
    },
  };
}

/**
 * A short intro, so that the operations are on the first screen of /docs: the conventions in one
 * line each, the details where a reader of an operation meets them (the security schemes, the 429
 * response, the Error schema, each operation's own description).
 */
function infoDescription(options: OpenApiOptions): string {
  const key = envelopeKey(options.variant);
  return [
    options.description,
    [
      `- Every operation is a GET (HEAD too) answering JSON; errors are \`{"${key}": false, "error": {"code", "type", "message"}}\` (schema \`Error\`).`,
      `- ${VARIANT_NOTES[options.variant].auth} Quotas per account in UTC windows, with \`X-RateLimit-*\` headers (response 429).`,
      ...(options.webhooks ? ['- Enterprise accounts receive signed webhooks (**Webhooks**, after the operations).'] : []),
    ].join('\n'),
  ].join('\n\n');
}

/** The envelope, the checks' order and the error format: the Error schema's description. */
function errorsDescription(variant: Variant): string {
  const key = envelopeKey(variant);
  return [
    `${VARIANT_NOTES[variant].envelope} Timestamps are ISO 8601 UTC with milliseconds; dates are \`YYYY-MM-DD\` (UTC).`,
    `Every error is \`{"${key}": false, "error": {"code": <HTTP status>, "type": "<type>", "message": "<text>"}}\`. ` +
      'Checks run in this order and the first failure answers: key (401), path (404; another method than GET or HEAD: ' +
      '405 with `Allow: GET, HEAD`; a route retired at its sunset: 410), plan (403), quota (429), parameters (400). Unknown query parameters are ignored.',
  ].join('\n\n');
}

/** How quotas are counted: the 429 response's description. */
function quotasDescription(variant: Variant): string {
  return (
    `Rate limit exceeded: wait \`Retry-After\` seconds. ${VARIANT_NOTES[variant].quotas} Quotas belong to the account (shared by its keys), ` +
    'in fixed windows aligned to the UTC clock (the minute at second 0, the day at 00:00 UTC). Answers 200 and 400 spend one unit; ' +
    '401, 403, 404, 405, 410 and 429 spend none. Limited plans get `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` ' +
    '(Unix epoch seconds) for the binding window, the one with the fewest units left.'
  );
}

const SIGNATURE_HEADERS = [
  ['webhook-id', 'The delivery id (msg_...): the same on every attempt of this event to this endpoint. Deduplicate on it.'],
  ['webhook-timestamp', 'When this attempt was signed, in Unix seconds. Refuse one far from your clock (Standard Webhooks libraries allow 5 minutes).'],
  ['webhook-signature', '`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated.'],
] as const;

/** Each event a receiver gets: a signed POST of its JSON body, and what the receiver's answers mean. */
function webhooksOf(events: WebhookEventDeclarations): Json {
  const parameters = SIGNATURE_HEADERS.map(([name, description]) => ({ name, in: 'header', required: true, description, schema: { type: 'string' } }));
  return Object.fromEntries(
    Object.entries(events).map(([type, event]) => [
      type,
      {
        post: {
          operationId: `webhook${type.replace(/(^|[._])(\w)/g, (_m, _sep, c: string) => c.toUpperCase())}`,
          summary: event.summary,
          // Each event whole: a reader (or a generator) of one finds how it is signed and retried.
          description: `${event.description}\n\n${WEBHOOK_DELIVERY_NOTES}`,
          parameters,
          requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(event.schema, 'output') } } },
          responses: {
            '2XX': { description: 'Received: the delivery is done.' },
            '410': { description: 'Gone: the endpoint is disabled and receives nothing more.' },
            '429': { description: 'Busy: retried no sooner than `Retry-After`, or the schedule, whichever is later (503 too).' },
            default: { description: 'Anything else (or no answer within 10 s): retried on the schedule.' },
          },
        },
      },
    ]),
  );
}

/** The routes' paths under the API prefix, each with its operations. */
function pathsOf(options: OpenApiOptions): Json {
  const paths: Json = {};
  for (const route of options.routes) {
    paths[`${API_PREFIX}${route.path}`] = operationsOf(route, {
      plan: options.planByPath?.[route.path],
      operation: options.operations?.[route.path],
      deprecation: options.deprecations?.[routeIdOf(options.variant, route.path)],
      enforceSunset: options.enforceSunset,
    });
  }
  return paths;
}

/** The error responses the operations refer to: one per status of OPERATION_ERRORS, then 410 and 405. */
function errorResponses(variant: Variant): Json {
  const rateHeaders = rateHeaderRefs();
  const responses: Json = {};
  for (const [status, { name, text }] of Object.entries(OPERATION_ERRORS)) {
    const code = Number(status) as keyof typeof ERROR_TYPES;
    const retryAfter = { 'Retry-After': ref('headers', 'Retry-After') };
    const challenge = {
      'WWW-Authenticate': {
        description:
          'RFC 6750: `Bearer realm="market-gateway"` for a missing key; where a key was sent, also `error="invalid_token"` and `error_description` (`malformed API key`, `unknown`, `revoked`, `expired`, `disabled`).',
        schema: { type: 'string' },
      },
    };
    const headers =
      code === 400 ? rateHeaders : code === 429 ? { ...rateHeaders, ...retryAfter } : code === 503 ? retryAfter : code === 401 ? challenge : undefined;
    responses[name] = errorResponse(variant, code, text, headers, code === 429 ? quotasDescription(variant) : text);
  }
  responses.Gone = errorResponse(
    variant,
    410,
    'Gone: the route was retired at its sunset (the `Sunset` header); its GraphQL operation answers the same on /graphql.',
  );
  responses.MethodNotAllowed = errorResponse(variant, 405, 'Method not allowed: only GET and HEAD.', {
    Allow: { description: 'Always `GET, HEAD`.', schema: { type: 'string', const: 'GET, HEAD' } },
  });
  return responses;
}

/** The key in the `Authorization` header; variant B also takes it in the query string. */
function securitySchemesOf(variant: Variant): Json {
  return {
    bearerAuth: {
      type: 'http',
      scheme: 'bearer',
      description:
        'The API key as `Authorization: Bearer <key>`. A missing, malformed, unknown, revoked or expired key answers 401 (with `WWW-Authenticate`, the message saying which); a plan without the endpoint answers 403.',
    },
    ...(variant === 'B'
      ? {
          apiKey: {
            type: 'apiKey',
            in: 'query',
            name: 'apikey',
            description: 'Alternative: the API key as `?apikey=<key>`. The header wins when both are given; a key in a URL is more exposed, prefer the header.',
          },
        }
      : {}),
  };
}

/** The headers the responses refer to: the rate-limit headers, Retry-After, ETag and Cache-Control. */
function headerComponents(): Json {
  const headerSchema = { type: 'integer', minimum: 0 };
  return {
    ...Object.fromEntries(
      Object.entries(RATE_HEADERS).map(([name, description]) => [name, { description: `${description} Absent for unlimited plans.`, schema: headerSchema }]),
    ),
    'Retry-After': { description: 'Seconds to wait before the next request (at least 1).', schema: { type: 'integer', minimum: 1 } },
    ETag: { description: 'A strong validator of the answer, for If-None-Match.', schema: { type: 'string' } },
    'Cache-Control': { description: '`private, max-age=<seconds>`: how long the answer stays current.', schema: { type: 'string' } },
  };
}

export function buildOpenApiDocument(options: OpenApiOptions): object {
  const { variant } = options;
  const paths = pathsOf(options);
  const responses = errorResponses(variant);
  const securitySchemes = securitySchemesOf(variant);

  return {
    openapi: '3.1.0',
    info: { title: options.title, version: options.version, description: infoDescription(options), license: { name: 'MIT', identifier: 'MIT' } },
    // Without an absolute base, the listener the document was read from.
    servers: [options.serverUrl ? { url: options.serverUrl } : { url: '/', description: 'The listener this document was read from.' }],
    // Alternatives: any one scheme suffices.
    security: Object.keys(securitySchemes).map((name) => ({ [name]: [] })),
    paths,
    ...(options.webhooks ? { webhooks: webhooksOf(options.webhooks) } : {}),
    components: {
      schemas: { Error: errorSchema(variant) },
      responses,
      headers: headerComponents(),
      parameters: {
        IfNoneMatch: {
          name: 'If-None-Match',
          in: 'header',
          required: false,
          description: 'The ETag of an answer already held: 304 without a body when it is still the answer.',
          schema: { type: 'string' },
        },
      },
      securitySchemes,
    },
  };
}
