/**
 * Measures the walk of one request through our code: which of our source files it enters, in how
 * many folders, how many of our functions it calls and how often it enters the REST facade, counted
 * by V8's precise coverage (call counts), not by reading the code. Each kind of request is sent once
 * to warm up, then measured three times (a kept answer's hit where one is kept); the run with the
 * fewest calls stands, so that a timer of the service's own (a usage flush, a WAL checkpoint)
 * firing during one run is not counted as the request's. The first row is the
 * everyday case: a Free key, usage recorded, a log line at info (written to /dev/null, but
 * serialized as in production). Run on a built tree:
 *   node bench/walk.mjs [repository root, default .]
 * so that two commits (two worktrees) can be compared in one run.
 */
import fs from 'node:fs';
import http from 'node:http';
import inspector from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(process.argv[2] ?? '.');
const load = (file) => import(pathToFileURL(path.join(root, 'dist/src', file)).href);
const { createService } = await load('app.js');
const { loadConfig } = await load('config/config.js');
const { createHttpServer } = await load('http/http-server.js');
const { displayPrefix, generateApiKey, hashApiKey } = await load('auth/api-key.js');
const { createLogger } = await load('logging/logger.js');
const { default: pino } = await import(pathToFileURL(path.join(root, 'node_modules/pino/pino.js')).href);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mgw-walk-'));
const logger = createLogger('info', pino.destination({ dest: '/dev/null', sync: true }));
const service = await createService(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'info', USAGE_RECORDING: 'on', DEMO_TICK_MS: '3600000' }), {
  role: 'http',
  logger,
});
/** A key of a new account on these plans. */
async function keyFor(marketDataPlan, predictionPlan) {
  const key = generateApiKey();
  await service.store.accounts.createAccountWithKey({
    name: `walk ${marketDataPlan}`,
    marketDataPlan,
    predictionPlan,
    keyHash: hashApiKey(key),
    displayPrefix: displayPrefix(key),
    now: Date.now(),
  });
  return key;
}
const key = await keyFor('enterprise', 'pro');
const freeKey = await keyFor('free', 'none');
const servers = {
  A: createHttpServer(service.marketDataApp, 'A').listen(0, '127.0.0.1'),
  B: createHttpServer(service.predictionApp, 'B').listen(0, '127.0.0.1'),
};
await Promise.all(Object.values(servers).map((s) => new Promise((r) => s.once('listening', r))));

function send(variant, method, url, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port: servers[variant].address().port,
      method,
      path: url,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const REQUESTS = [
  [
    'REST A GET /api/v1/markets?limit=5, Free key, usage on, info log',
    () => send('A', 'GET', '/api/v1/markets?limit=5', undefined, { authorization: `Bearer ${freeKey}` }),
  ],
  ['REST A GET /api/v1/markets?limit=5, Enterprise key', () => send('A', 'GET', '/api/v1/markets?limit=5')],
  ['REST B GET /api/v1/markets (404 path)', () => send('B', 'GET', '/api/v1/nope')],
  ['/graphql B query (POST)', () => send('B', 'POST', '/graphql', { query: '{ predictionMarkets(limit: 5) { count items { id question } } }' })],
  ['/graphql A mutation (Apollo)', () => send('A', 'POST', '/graphql', { query: 'mutation { _noop }' })],
  ['/graphql B query without a key (401)', () => send('B', 'POST', '/graphql', { query: '{ viewer { name } }' }, { authorization: '' })],
];

const session = new inspector.Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
const srcDir = path.join(root, 'dist/src');
console.log(`walk of ${root}`);
/** One measured run of `run`: its status, and which of our files and functions it entered. */
async function measure(run) {
  await session.post('Profiler.takePreciseCoverage'); // resets the counts
  const status = await run();
  const { result } = await session.post('Profiler.takePreciseCoverage');
  let calls = 0;
  let admissions = 0;
  let facade = 0;
  const files = [];
  for (const script of result) {
    if (!script.url.startsWith(pathToFileURL(srcDir).href)) continue;
    // The first range of each function is its whole body; its count is how often it was called.
    const called = script.functions.filter((f) => f.functionName !== '' || f.ranges[0].startOffset > 0).reduce((n, f) => n + f.ranges[0].count, 0);
    if (script.url.endsWith('/edge/edge.js')) admissions = script.functions.find((f) => f.functionName === 'admit')?.ranges[0].count ?? 0;
    if (script.url.endsWith('/rest/facade.js')) facade = called;
    if (called > 0) {
      calls += called;
      files.push(path.relative(srcDir, script.url.slice('file://'.length)));
    }
  }
  return { status, calls, admissions, facade, files };
}

for (const [name, run] of REQUESTS) {
  await run(); // warm: caches filled, modules compiled
  const runs = [];
  for (let i = 0; i < 3; i++) runs.push(await measure(run));
  const { status, calls, admissions, facade, files } = runs.reduce((least, r) => (r.calls < least.calls ? r : least));
  const folders = new Set(files.map((file) => path.dirname(file)));
  console.log(
    `${name}: ${status}, ${files.length} files in ${folders.size} folders, ${calls} calls of our functions, ${facade} into the facade, ${admissions} entries into the edge (admit: a call, plus one per await it resumes from)\n  ${files.sort().join(' ')}`,
  );
}
await session.post('Profiler.stopPreciseCoverage');
for (const s of Object.values(servers)) s.close();
await service.close();
fs.rmSync(dataDir, { recursive: true, force: true });
