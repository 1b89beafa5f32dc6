/** Configuration from the environment, validated once at start (a bad value stops start-up with a clear message). */
import path from 'node:path';
import { z } from 'zod';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../domain/time.js';
import { TRUSTED_DOCUMENTS_MODES, type TrustedDocumentsMode } from '../graphql/catalogue/trusted-documents.js';
import { PlanLimitOverridesSchema, resolvePlanLimits, type PlanLimitTable } from '../quota/plans.js';
import { type Deprecations, deprecationsSchema } from '../rest/deprecations.js';
import { ROUTE_IDS } from '../rest/routes/by-variant.js';
import type { OtelEnv } from '../telemetry/tracing.js';
import { type DestinationPolicy, parseAllowedNetworks } from '../webhooks/destination.js';
import { LIVE_SOURCES, parseFeeds, PREDICTION_SOURCES, type FeedSelection, type UpstreamSettings } from '../upstream/sources.js';

const port = z.coerce.number().int().min(0).max(65_535);

/** A comma list of tickers (`KXNCAAMBGAME,KXMARMAD`), upper case, blanks and repeats dropped. */
const tickerList = z
  .string()
  .optional()
  .transform((text) => [
    ...new Set(
      (text ?? '')
        .split(',')
        .map((t) => t.trim().toUpperCase())
        .filter(Boolean),
    ),
  ])
  .refine((list) => list.every((t) => /^[A-Z0-9._-]+$/.test(t)), 'a comma-separated list of Kalshi tickers (letters, digits, - . _)');

/** A setting given as JSON text. */
const jsonText = z.string().transform((text, ctx) => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    ctx.addIssue({ code: 'custom', message: 'not valid JSON' });
    return z.NEVER;
  }
});

const EnvSchema = z.object({
  HOST: z.string().min(1).default('127.0.0.1'),
  MARKET_DATA_PORT: port.default(4000),
  /** How long a key read from the store is trusted before it is read again (revocations are polled meanwhile). */
  KEY_CACHE_TTL_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /** Open connections one client address may hold per listener; 0: no cap (behind a load balancer, every client is its address). */
  MAX_CONNECTIONS_PER_CLIENT: z.coerce.number().int().min(0).max(1_000_000).default(256),
  PREDICTION_PORT: port.default(4001),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .url()
    .refine((url) => /^postgres(ql)?:\/\//i.test(url), 'a postgres:// or postgresql:// URL (unset: SQLite in DATA_DIR)')
    .optional(),
  /** Overrides of the plans' quotas, as JSON (see .env.example). */
  PLAN_LIMITS: jsonText.pipe(PlanLimitOverridesSchema).optional(),
  /** Shared quotas across instances (redis://host:6379/0). */
  REDIS_URL: z
    .url()
    .refine((url) => /^rediss?:\/\//i.test(url), 'a redis:// or rediss:// URL')
    .optional(),
  /** `serve` without REDIS_URL: accept quotas counted per instance (refused otherwise). */
  ALLOW_LOCAL_QUOTAS: z.enum(['0', '1']).default('0'),
  FEEDS: z.string().default('demo'),
  /** Per request to an upstream. */
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** A fixed wait between two pages of a paged source's poll; unset: its pages spread over half its interval. */
  UPSTREAM_PAGE_GAP_MS: z.coerce.number().int().min(0).max(600_000).optional(),
  DEMO_SEED: z.coerce.number().int().default(42),
  DEMO_TICK_MS: z.coerce.number().int().min(50).default(2_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `auto`: readable lines on a terminal, JSON lines otherwise. */
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  /** Introspection and field suggestions on /graphql: on by default outside production, off in it. */
  GRAPHQL_INTROSPECTION: z.enum(['on', 'off']).optional(),
  GRAPHQL_SUGGESTIONS: z.enum(['on', 'off']).optional(),
  /** Trusted documents: `off`, `log` (unknown operations run, counted and logged) or `enforce` (refused). */
  TRUSTED_DOCUMENTS: z.enum(TRUSTED_DOCUMENTS_MODES).default('off'),
  NODE_ENV: z.enum(['production', 'development', 'test']).optional(),
  /** How often running servers look for revoked keys and changed accounts (plans, disabled); D2 bounds the delay at 2 s. */
  REVOCATION_POLL_MS: z.coerce.number().int().min(50).max(1_500).default(500),
  /** D10: when the day's morning brief is written. */
  BRIEF_HOUR_UTC: z.coerce.number().int().min(0).max(23).default(6),
  /** An OpenAI-compatible endpoint for the brief, e.g. http://127.0.0.1:11434/v1; unset: the built-in writer. */
  LLM_BASE_URL: z.url().optional(),
  LLM_MODEL: z.string().min(1).default('gpt-4o-mini'),
  LLM_API_KEY: z.string().optional(),
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  KALSHI_SERIES: tickerList,
  KALSHI_EVENTS: tickerList,
  /** Webhook URLs may be http:// as well as https:// (internal receivers, tests). */
  WEBHOOK_ALLOW_HTTP: z.enum(['0', '1']).default('0'),
  /** CIDRs webhooks may reach although they are not public, e.g. 10.0.0.0/8,::1/128. */
  WEBHOOK_ALLOWED_NETWORKS: z.string().optional(),
  /** Per delivery attempt. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** Attempts in flight at once, in all and per endpoint. */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(32),
  WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
  /** How often the queue is read for retries coming due and deliveries queued by the CLI. */
  WEBHOOK_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  /** How long ended deliveries (and their events) are kept for `webhooks deliveries`. */
  WEBHOOK_RETENTION_DAYS: z.coerce.number().int().min(1).max(3_650).default(30),
  /** Usage records (requests per day, account, key and route): `off` counts nothing (to measure what counting costs). */
  USAGE_RECORDING: z.enum(['on', 'off']).default('on'),
  /** How often each instance adds its counts to the store: what a kill -9 may lose. */
  USAGE_FLUSH_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  /** How long usage records are kept, in days. */
  USAGE_RETENTION_DAYS: z.coerce.number().int().min(1).max(3_650).default(400),
  /** Who may create a dashboard account: anyone (`open`), with an invitation link (`invite`), nobody (`closed`). */
  PORTAL_SIGNUP: z.enum(['open', 'invite', 'closed']).default('open'),
  /** The dashboard's address as people reach it (links in mail and from the CLI); https makes its cookie Secure. */
  PORTAL_PUBLIC_URL: z
    .url()
    .refine((url) => /^https?:\/\//i.test(url), 'an http:// or https:// URL')
    .optional(),
  /** Where a customer gets a plan (variant B's Pro above all), named by the keys page on B and by every 403 for the plan; unset: both say to ask the operator. */
  PORTAL_UPGRADE_URL: z.url().optional(),
  /** A session ends after this long without a request, and after the absolute timeout whatever happens. */
  PORTAL_IDLE_MINUTES: z.coerce.number().int().min(1).max(1_440).default(30),
  PORTAL_SESSION_HOURS: z.coerce.number().int().min(1).max(720).default(12),
  /** Mail for password resets and email verification (smtp:// or smtps://user:pass@host:port); unset: no mail, links from the CLI. */
  SMTP_URL: z
    .url()
    .refine((url) => /^smtps?:\/\//i.test(url), 'an smtp:// or smtps:// URL')
    .optional(),
  SMTP_FROM: z.string().min(3).default('market-gateway <no-reply@localhost>'),
  /** REST routes declared deprecated, keyed by route id (`A GET /api/v1/brief`); docs/migration.md. */
  LEGACY_DEPRECATIONS: jsonText.pipe(deprecationsSchema(ROUTE_IDS)).optional(),
  /** `1`: a route past its declared sunset answers 410. */
  LEGACY_ENFORCE_SUNSET: z.enum(['0', '1']).default('0'),
});

export interface Config {
  host: string;
  marketDataPort: number;
  maxConnectionsPerClient: number;
  keyCacheTtlMs: number;
  predictionPort: number;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  allowLocalQuotas: boolean;
  planLimits: PlanLimitTable;
  feeds: FeedSelection;
  upstream: UpstreamSettings;
  demoSeed: number;
  demoTickMs: number;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  logFormat: z.infer<typeof EnvSchema>['LOG_FORMAT'];
  production: boolean;
  graphql: { introspection: boolean; suggestions: boolean; trustedDocuments: TrustedDocumentsMode };
  revocationPollMs: number;
  briefHourUtc: number;
  llm: { baseUrl: string | undefined; model: string; apiKey: string | undefined; timeoutMs: number };
  webhooks: { policy: DestinationPolicy; timeoutMs: number; concurrency: number; perEndpoint: number; pollMs: number; retentionMs: number };
  usage: { recording: boolean; flushMs: number; retentionDays: number };
  dashboard: {
    signup: 'open' | 'invite' | 'closed';
    publicUrl: string | undefined;
    upgradeUrl: string | undefined;
    idleMs: number;
    absoluteMs: number;
    smtpUrl: string | undefined;
    smtpFrom: string;
  };
  legacy: { deprecations: Deprecations; enforceSunset: boolean };
  /** The OTEL_* variables (docs/observability.md): traces are on when they name an OTLP endpoint. */
  otel: OtelEnv;
}

export class ConfigError extends Error {}

/** `<SOURCE>_BASE_URL` and `<SOURCE>_POLL_MS` for every live source; `<SOURCE>_MAX_MARKETS` for the paged prediction ones. */
const SourceEnvSchema = z.object(
  Object.fromEntries(
    LIVE_SOURCES.flatMap((s) => [
      [`${s.toUpperCase()}_BASE_URL`, z.url().optional()],
      [`${s.toUpperCase()}_POLL_MS`, z.coerce.number().int().min(50).max(DAY_MS).optional()],
      ...((PREDICTION_SOURCES as readonly string[]).includes(s)
        ? [[`${s.toUpperCase()}_MAX_MARKETS`, z.coerce.number().int().min(1).max(100_000).optional()]]
        : []),
    ]),
  ) as Record<string, z.ZodOptional<z.ZodString> | z.ZodOptional<z.ZodNumber>>,
);

/** `PLAN_LIMITS.marketData.pro`, `LEGACY_DEPRECATIONS["A GET /api/v1/brief"].sunset`: each key as an operator would write it. */
const settingPath = (path: readonly PropertyKey[]): string =>
  path.map((key, i) => (i === 0 ? String(key) : typeof key === 'string' && /^[A-Za-z_]\w*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`)).join('');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = EnvSchema.and(SourceEnvSchema).safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${settingPath(i.path)}: ${i.message}`).join('; ');
    throw new ConfigError(`invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  // Port 0 (any free port, for tests) may repeat; a fixed one cannot serve two variants.
  if (e.MARKET_DATA_PORT === e.PREDICTION_PORT && e.MARKET_DATA_PORT !== 0) {
    throw new ConfigError(`invalid configuration: MARKET_DATA_PORT and PREDICTION_PORT are both ${e.MARKET_DATA_PORT}: each variant needs its own port`);
  }
  const feeds = parseFeeds(e.FEEDS);
  if ('error' in feeds) throw new ConfigError(`invalid configuration: FEEDS: ${feeds.error}`);
  const allowedNetworks = parseAllowedNetworks(e.WEBHOOK_ALLOWED_NETWORKS);
  if ('error' in allowedNetworks) throw new ConfigError(`invalid configuration: WEBHOOK_ALLOWED_NETWORKS: ${allowedNetworks.error}`);
  const sourceEnv = parsed.data as Record<string, string | number | undefined>;
  const sources = Object.fromEntries(
    LIVE_SOURCES.map((s) => [
      s,
      {
        baseUrl: sourceEnv[`${s.toUpperCase()}_BASE_URL`] as string | undefined,
        pollMs: sourceEnv[`${s.toUpperCase()}_POLL_MS`] as number | undefined,
        maxMarkets: sourceEnv[`${s.toUpperCase()}_MAX_MARKETS`] as number | undefined,
      },
    ]),
  ) as Config['upstream']['sources'];
  return {
    host: e.HOST,
    marketDataPort: e.MARKET_DATA_PORT,
    maxConnectionsPerClient: e.MAX_CONNECTIONS_PER_CLIENT,
    keyCacheTtlMs: e.KEY_CACHE_TTL_MS,
    predictionPort: e.PREDICTION_PORT,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    allowLocalQuotas: e.ALLOW_LOCAL_QUOTAS === '1',
    planLimits: resolvePlanLimits(e.PLAN_LIMITS),
    feeds,
    upstream: { timeoutMs: e.UPSTREAM_TIMEOUT_MS, sources, kalshi: { series: e.KALSHI_SERIES, events: e.KALSHI_EVENTS }, pageGapMs: e.UPSTREAM_PAGE_GAP_MS },
    demoSeed: e.DEMO_SEED,
    demoTickMs: e.DEMO_TICK_MS,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    production: e.NODE_ENV === 'production',
    graphql: {
      introspection: (e.GRAPHQL_INTROSPECTION ?? (e.NODE_ENV === 'production' ? 'off' : 'on')) === 'on',
      suggestions: (e.GRAPHQL_SUGGESTIONS ?? (e.NODE_ENV === 'production' ? 'off' : 'on')) === 'on',
      trustedDocuments: e.TRUSTED_DOCUMENTS,
    },
    revocationPollMs: e.REVOCATION_POLL_MS,
    briefHourUtc: e.BRIEF_HOUR_UTC,
    llm: { baseUrl: e.LLM_BASE_URL, model: e.LLM_MODEL, apiKey: e.LLM_API_KEY, timeoutMs: e.LLM_TIMEOUT_MS },
    webhooks: {
      policy: { allowHttp: e.WEBHOOK_ALLOW_HTTP === '1', allowedNetworks: allowedNetworks.networks },
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      concurrency: e.WEBHOOK_CONCURRENCY,
      perEndpoint: e.WEBHOOK_ENDPOINT_CONCURRENCY,
      pollMs: e.WEBHOOK_POLL_MS,
      retentionMs: e.WEBHOOK_RETENTION_DAYS * DAY_MS,
    },
    usage: { recording: e.USAGE_RECORDING === 'on', flushMs: e.USAGE_FLUSH_MS, retentionDays: e.USAGE_RETENTION_DAYS },
    dashboard: {
      signup: e.PORTAL_SIGNUP,
      publicUrl: e.PORTAL_PUBLIC_URL?.replace(/\/+$/, ''),
      upgradeUrl: e.PORTAL_UPGRADE_URL,
      idleMs: e.PORTAL_IDLE_MINUTES * MINUTE_MS,
      absoluteMs: e.PORTAL_SESSION_HOURS * HOUR_MS,
      smtpUrl: e.SMTP_URL,
      smtpFrom: e.SMTP_FROM,
    },
    legacy: { deprecations: e.LEGACY_DEPRECATIONS ?? {}, enforceSunset: e.LEGACY_ENFORCE_SUNSET === '1' },
    // OpenTelemetry's standard variables, read by src/telemetry as the specification defines them.
    otel: Object.fromEntries(Object.entries(present).filter(([name]) => name.startsWith('OTEL_'))) as OtelEnv,
  };
}
