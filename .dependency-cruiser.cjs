/**
 * The code's layers, checked on every `npm test` (dependency-cruiser). Imports point one way:
 *
 *   domain -> store -> computation (analytics, prediction, links: indicators, briefs, scoring, movements, market links)
 *     -> read models (what requests read, in memory)
 *     -> services (feeds, ingest, alerts, the morning brief, keys, dashboard accounts, quotas, usage records, metrics, webhooks)
 *     -> schema and resolvers (src/graphql) -> edge (the request sequence)
 *     -> transports (REST facades, /graphql over HTTP) -> http (listeners) -> composition (app, src/composition, cli, config)
 *
 * A module may import its own layer and the ones before it, never a later one, and no import
 * cycle is allowed anywhere. net, logging, cluster, deadline and telemetry are leaves that import nothing of ours
 * (logging may use telemetry, a leaf too: the trace ids on log lines).
 */
const later = (...folders) => `^src/(${folders.join('|')})(/|\\.ts$)`;
const SERVICES = ['upstream', 'ingest', 'alerts', 'brief', 'auth', 'dashboard-accounts', 'quota', 'usage', 'metrics', 'webhooks'];

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'An import cycle: no module may depend on itself.', from: {}, to: { circular: true } },
    {
      name: 'domain-is-the-base',
      severity: 'error',
      comment: 'The domain imports nothing of the application (libraries only).',
      from: { path: '^src/domain/' },
      to: { path: '^src/', pathNot: '^src/domain/' },
    },
    {
      name: 'leaves-import-nothing-of-ours',
      severity: 'error',
      comment: 'net, logging, cluster, deadline and telemetry are used by many layers, so they stand on none.',
      from: { path: '^src/(net|logging|cluster|deadline|telemetry)/' },
      to: { path: '^src/', pathNot: '^src/(net|logging|cluster|deadline|telemetry)/' },
    },
    {
      name: 'otel-sdk-only-through-telemetry',
      severity: 'error',
      comment: 'The OpenTelemetry SDK is loaded by src/telemetry/otel*.ts alone, by a dynamic import when an OTLP endpoint is set.',
      from: { path: '^src/', pathNot: '^src/telemetry/otel(-metrics|-span-counts|-resource)?\\.ts$' },
      to: { path: 'node_modules/@opentelemetry/(sdk-|exporter-|context-async-hooks|resources|core)', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'store-below-computation',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: later('analytics', 'prediction', 'links', 'readmodel', ...SERVICES, 'graphql', 'edge', 'rest', 'graphql-http', 'dashboard', 'http', 'cli', 'config', 'composition', 'app') },
    },
    {
      name: 'computation-below-read-models',
      severity: 'error',
      from: { path: '^src/(analytics|prediction|links)/' },
      to: { path: later('readmodel', ...SERVICES, 'graphql', 'edge', 'rest', 'graphql-http', 'dashboard', 'http', 'cli', 'config', 'composition', 'app') },
    },
    {
      name: 'read-models-below-services',
      severity: 'error',
      from: { path: '^src/readmodel/' },
      to: { path: later(...SERVICES, 'graphql', 'edge', 'rest', 'graphql-http', 'dashboard', 'http', 'cli', 'config', 'composition', 'app') },
    },
    {
      name: 'services-below-schema',
      severity: 'error',
      from: { path: `^src/(${SERVICES.join('|')})/` },
      to: { path: later('graphql', 'edge', 'rest', 'graphql-http', 'dashboard', 'http', 'cli', 'config', 'composition', 'app') },
    },
    {
      name: 'schema-below-edge',
      severity: 'error',
      from: { path: '^src/graphql/' },
      to: { path: later('edge', 'rest', 'graphql-http', 'dashboard', 'http', 'cli', 'config', 'composition', 'app') },
    },
    {
      name: 'edge-below-transports',
      severity: 'error',
      from: { path: '^src/edge/' },
      to: { path: later('graphql', 'rest', 'graphql-http', 'dashboard', 'http', 'cli', 'config', 'composition', 'app') },
    },
    {
      name: 'transports-below-http',
      severity: 'error',
      from: { path: '^src/(rest|graphql-http|dashboard)/' },
      to: { path: later('http', 'cli', 'config', 'composition', 'app') },
    },
    {
      name: 'requests-reach-the-store-through-services',
      severity: 'error',
      comment:
        'The edge and the transports reach the store through the services and read models, never by importing it (types excepted): a request step that entered the store directly is how the deadline once lived there.',
      from: { path: '^src/(edge|rest|graphql-http|dashboard|http)/' },
      to: { path: '^src/store/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'http-below-composition',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: later('cli', 'config', 'composition', 'app') },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
