/**
 * What an embedded installation does not load at start, a few MB of memory each (docs/performance-log.md):
 * ioredis (only with REDIS_URL), pg (only with DATABASE_URL), nodemailer (with the first message
 * over SMTP_URL), Express (with the first request for /docs), request-filtering-agent (with the
 * first webhook delivery), graphql-rate-limit (with the first limited field over /graphql), otplib
 * and qrcode (with the first two-factor step), fflate (with the first ECB archive), pino-pretty
 * (only for a terminal) and the OpenTelemetry SDK (only with OTEL_EXPORTER_OTLP_ENDPOINT). Checked in a child on the built code, as `npm start` loads it: every
 * module the service and the CLI import, then a service started with its jobs that answered a
 * request (an import made lazy but called at start would pass the first check, not the second).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../../support/cli.js';

/** The packages a child on the built code loads while it runs `script` (a module body that may await). */
function packagesLoadedBy(script: string, env: NodeJS.ProcessEnv = process.env): string[] {
  // A load hook sees every module, CommonJS ones imported from ES modules included (which
  // require.cache does not list).
  const hooked = `
    const { registerHooks } = await import('node:module');
    const packages = new Set();
    registerHooks({
      load(url, context, next) {
        const name = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(url)?.[1];
        if (name) packages.add(name);
        return next(url, context);
      },
    });
    ${script}
    console.log(JSON.stringify([...packages]));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', hooked], { encoding: 'utf8', timeout: 60_000, env });
  return JSON.parse(out.trim().split('\n').at(-1)!) as string[];
}

const OTEL_SDK = [
  '@opentelemetry/sdk-trace',
  '@opentelemetry/sdk-metrics',
  '@opentelemetry/exporter-metrics-otlp-proto',
  '@opentelemetry/exporter-metrics-otlp-http',
  '@opentelemetry/exporter-trace-otlp-proto',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/context-async-hooks',
  '@opentelemetry/resources',
  '@opentelemetry/core',
];
const LAZY = [
  'ioredis',
  'pg',
  'nodemailer',
  'express',
  'request-filtering-agent',
  'graphql-rate-limit',
  'otplib',
  'qrcode',
  'fflate',
  'pino-pretty',
  ...OTEL_SDK,
];

it('the service and the CLI load without the drivers and libraries of features not in use; better-sqlite3, which the store opens, loads', () => {
  const modules = ['dist/src/app.js', 'dist/src/cli/program.js'].map((file) => path.join(REPO_ROOT, file));
  const packages = packagesLoadedBy(`for (const file of ${JSON.stringify(modules)}) await import(file);`);
  expect(packages).toContain('better-sqlite3'); // the check sees what is loaded
  expect(LAZY.filter((name) => packages.includes(name))).toEqual([]);
});

it('a started service that answered the API and /graphql still holds none of them', () => {
  const app = path.join(REPO_ROOT, 'dist/src/app.js');
  const config = path.join(REPO_ROOT, 'dist/src/config/config.js');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mgw-lazy-'));
  try {
    // Its jobs run too (the demo feed's ingest, the webhook worker); the requests go through the whole pipeline.
    const packages = packagesLoadedBy(
      `
      const { startService } = await import(${JSON.stringify(app)});
      const { loadConfig } = await import(${JSON.stringify(config)});
      const service = await startService(loadConfig(), { role: 'all' });
      const base = 'http://127.0.0.1:' + service.ports.marketData;
      const statuses = [(await fetch(base + '/api/v1/markets')).status];
      statuses.push((await fetch(base + '/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' })).status);
      if (statuses[0] !== 401) throw new Error('unexpected answers ' + statuses);
      await service.stop();`,
      { ...process.env, DATA_DIR: dataDir, MARKET_DATA_PORT: '0', PREDICTION_PORT: '0', LOG_LEVEL: 'error', LOG_FORMAT: 'json' },
    );
    expect(packages).toContain('better-sqlite3');
    expect(LAZY.filter((name) => packages.includes(name))).toEqual([]);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
