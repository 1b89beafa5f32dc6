/**
 * `npm run bench`: the real service (embedded mode, demo feed, a real key, quotas on) against a raw
 * node:http server writing the very same bytes, measured in alternation with autocannon, the servers
 * pinned to core 0 and the load generator to core 1 where taskset exists. Prints req/s, p50, p99,
 * server CPU per request and peak RSS, with each endpoint's ratio to the raw server of the same run,
 * and writes the table as JSON under bench-results/.
 *
 *   npm run bench                      embedded (SQLite, in-process quotas)
 *   npm run bench -- --distributed     PostgreSQL (DATABASE_URL or the local test database) + Redis
 *   npm run bench -- --scale           then again at scale (bench/seed-scale.mjs), with the cost growth
 *   BENCH_SECONDS=10 BENCH_CONNECTIONS=50 npm run bench
 *   BENCH_REPEAT=3 npm run bench       each row's pair of runs three times; the median ratio's pair stands
 *
 * Then the webhook rows (bench/webhooks.ts): 1 000 alert triggers delivered to a local receiver,
 * and the ingest step's latency with and without a slow receiver's backlog; and the subscription
 * rows (bench/subscribers.ts): 2 000 WebSocket subscribers, tick-to-client latency, CPU, RSS; and the
 * market links rows (bench/links.ts): the real linker over 10 000 + 10 000 markets on SQLite.
 *   BENCH_ONLY=links npm run bench     only those
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { benchLinks } from './links.js';
import { benchSubscribers } from './subscribers.js';
import { benchUsageCount } from './usage-count.js';
import { benchWebhooks } from './webhooks.js';
import {
  CLI,
  cpuMs,
  createBenchKey,
  HAS_TASKSET,
  peakRssMb,
  ROOT,
  rssMb,
  serviceEnv,
  shebangFlags,
  shebangVariables,
  start,
  startService,
  waitFor,
} from './harness.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARM_UP_SECONDS = 2;
/**
 * Pairs of runs (the raw server, then the service) per row. The raw server's rate is the load
 * generator's limit, and on a shared machine it moves by a third from one run to the next, so a
 * ratio read from one pair is noisy; the row shows the pair with the median ratio, and all ratios.
 */
const REPEAT = Math.max(1, Math.floor(Number(process.env.BENCH_REPEAT ?? 1)) || 1);
const DISTRIBUTED = process.argv.includes('--distributed');
const SCALE = process.argv.includes('--scale');
const PORT_A = 4600;
const PORT_B = 4601;
const PORT_RAW = 4602;
const PORT_STOCK = 4603;

interface Endpoint {
  name: string;
  port: number;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** The Accept header a real client sends (default: none, as curl). */
  accept?: string;
  /** Also measured on stock Apollo Server over the same schema and data (bench/stock-apollo.mjs). */
  stockApollo?: boolean;
  /** Sent with the ETag of its own first answer, as a client revalidating: every answer is a 304. */
  revalidate?: boolean;
}

const SYMBOLS = 'BTC/USD,ETH/USD,SOL/USD,XRP/USD,EUR/USD,GBP/USD,USD/JPY,AAPL/USD,MSFT/USD,NVDA/USD';
const B_MARKETS_QUERY = '{ predictionMarkets(limit: 50) { count items { question probability probabilityPct volume24h signal url source } } }';
/** The dashboards' query as a trusted document (loaded with `documents load` before the service starts), fetched by its id. */
const TRUSTED_BODY = `query PredictionBoard ${B_MARKETS_QUERY}`;
const TRUSTED_ID = createHash('sha256').update(TRUSTED_BODY).digest('hex');
const ENDPOINTS: Endpoint[] = [
  { name: 'A /markets (page of 100)', port: PORT_A, method: 'GET', path: '/api/v1/markets?limit=100' },
  { name: 'A /brief (10 symbols)', port: PORT_A, method: 'GET', path: `/api/v1/brief?symbols=${SYMBOLS}&limit=10` },
  { name: 'A /alerts', port: PORT_A, method: 'GET', path: '/api/v1/alerts' },
  { name: 'B /markets', port: PORT_B, method: 'GET', path: '/api/v1/markets' },
  { name: 'B /alerts', port: PORT_B, method: 'GET', path: '/api/v1/alerts' },
  { name: 'B /brief', port: PORT_B, method: 'GET', path: '/api/v1/brief' },
  { name: '/graphql (B markets)', port: PORT_B, method: 'POST', path: '/graphql', body: JSON.stringify({ query: B_MARKETS_QUERY }), stockApollo: true },
  // The same query as Apollo Client 4 sends it: its Accept header and its own extensions.
  {
    name: '/graphql (B markets, Apollo Client)',
    port: PORT_B,
    method: 'POST',
    path: '/graphql',
    body: JSON.stringify({ query: B_MARKETS_QUERY, extensions: { clientLibrary: { name: '@apollo/client', version: '4.3.8' } } }),
    accept: 'application/graphql-response+json,application/json;q=0.9',
  },
  {
    name: '/graphql GET of a trusted document by id, If-None-Match (304)',
    port: PORT_B,
    method: 'GET',
    path: `/graphql?documentId=sha256:${TRUSTED_ID}`,
    accept: 'application/graphql-response+json,application/json;q=0.9',
    revalidate: true,
  },
];

// BENCH_ONLY=markets measures only the endpoints whose name contains it (quicker comparisons); `|` separates several.
const ONLY = process.env.BENCH_ONLY?.split('|').filter(Boolean);
const SELECTED = ENDPOINTS.filter((e) => !ONLY || ONLY.some((part) => e.name.includes(part)));

/** The raw server serves both variants from one port: the variant is the first path segment there. */
const rawPath = (e: Endpoint) => `/${e.port === PORT_A ? 'a' : 'b'}${e.path}${e.accept ? `?accept=${encodeURIComponent(e.accept)}` : ''}`;
/** The request headers of an endpoint: the key, and the body's type and the client's Accept where it has them. */
const headersOf = (e: Endpoint, key: string, etag?: string) => ({
  authorization: `Bearer ${key}`,
  ...(e.body ? { 'content-type': 'application/json' } : {}),
  ...(e.accept ? { accept: e.accept } : {}),
  ...(etag ? { 'if-none-match': etag } : {}),
});

/** The trusted document the 304 row fetches, written as Apollo's manifest and loaded as an operator would. */
function loadTrustedDocument(env: NodeJS.ProcessEnv, dir: string): void {
  const manifest = path.join(dir, 'manifest.json');
  const operations = [{ id: TRUSTED_ID, name: 'PredictionBoard', type: 'query', body: TRUSTED_BODY }];
  fs.writeFileSync(manifest, JSON.stringify({ format: 'apollo-persisted-query-manifest', version: 1, operations }));
  const loaded = spawnSync('node', [CLI, 'documents', 'load', manifest], { env, encoding: 'utf8' });
  if (loaded.status !== 0) throw new Error(`documents load failed: ${loaded.stderr}`);
}

/** A counter of the service's /metrics (its samples summed over the labels that match). */
async function counter(port: number, name: string, labels: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) && line.includes(labels))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}

/** The process doing the work: taskset execs node, so its pid is the child's. */
const workerPid = (child: ChildProcess) => child.pid!;

async function load(e: Endpoint, port: number, key: string, keys?: KeyCursor, etag?: string, seconds = SECONDS) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${port === PORT_RAW ? rawPath(e) : port === PORT_STOCK ? '/' : e.path}`,
    method: e.method,
    connections: CONNECTIONS,
    duration: seconds,
    headers: headersOf(e, key, etag),
    ...(e.body ? { body: e.body } : {}),
    ...(keys ? { requests: rotating(keys) } : etag ? { requests: revalidating(etag) } : {}),
  });
  // A revalidation row answers 304, and 200 once per connection when the data changed (the demo ticks).
  const bad = (etag ? result.requests.total - result['2xx'] - result['3xx'] : result.non2xx) + result.errors + result.timeouts;
  if (etag)
    return {
      reqPerSec: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      total: result.requests.total,
      bad,
      notModified: result['3xx'],
    };
  return { reqPerSec: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, total: result.requests.total, bad };
}

interface Row {
  endpoint: string;
  bytes: number;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  cpuUsPerReq: number;
  rawReqPerSec: number;
  /** The raw server's p99 on the same bytes: the part of a tail that the load generator and the machine add. */
  rawP99Ms: number;
  ratio: number;
  errors: number;
  /** The measured process's resident memory after the row, and its peak so far (MB). */
  rssMb: number;
  peakRssMb: number;
  /** With BENCH_REPEAT above 1: the ratio of every pair of runs, lowest first. */
  ratios?: string;
  /** With BENCH_REPEAT above 1: the service's p99 in every pair, in the same order. */
  p99s?: string;
}

interface Suite {
  label: string;
  rows: Row[];
  speedups: { endpoint: string; timesStockApollo: number }[];
  peakRssMb: number;
  /** At scale: what the process holds step by step, in MB (bench/memory.mjs). */
  memory?: object[];
  /** Revalidation rows: how many 304s, and how many operations ran meanwhile (mgw_graphql_requests_total{path="compiled"}). */
  revalidations: { endpoint: string; requests: number; answered304: number; executed: number }[];
  /** What counting usage costs a request: the same rows with USAGE_RECORDING off and on, alternated (demo data only), and the count alone. */
  usageCost?: {
    rows: { endpoint: string; cpuUsPerReqOff: number; cpuUsPerReqOn: number; costUs: number; p99MsOff: number; p99MsOn: number }[];
    countAlone: { nsPerCount: number; calls: number };
  };
  /** What tracing costs a request: traces unset, sampled at 1 % and at 100 %, alternated, against a loopback collector. */
  tracingCost?: {
    endpoint: string;
    cpuUsPerReqUnset: number;
    cpuUsPerReq1pct: number;
    cpuUsPerReq100pct: number;
    p99MsUnset: number;
    p99Ms1pct: number;
    p99Ms100pct: number;
  }[];
}

/**
 * Clients revalidating: If-None-Match with the ETag of the newest answer any of them got (autocannon
 * clears a connection's own context after each request, so the ETag is kept here).
 */
const revalidating = (first: string): autocannon.Request[] => {
  let newest = first;
  return [
    {
      setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'if-none-match': newest } }),
      onResponse: (status, _body, _context, headers) => {
        // autocannon keeps the server's spelling of header names (ETag).
        const etag = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'etag')?.[1];
        if (status === 200 && typeof etag === 'string') newest = etag;
      },
    },
  ];
};

/**
 * Where a rotation through the keys is. A row's runs on the service share one, so that no run
 * starts again on keys the run before left in the key cache: every request is on a key the
 * service has not cached (the cache keeps 50 000 of the 100 000).
 */
interface KeyCursor {
  keys: string[];
  next: number;
}

/** Rotates the Authorization header through the keys, one per request, from where `cursor` is. */
const rotating = (cursor: KeyCursor) => [
  {
    setupRequest: (req: autocannon.Request) => ({
      ...req,
      headers: { ...req.headers, authorization: `Bearer ${cursor.keys[cursor.next++ % cursor.keys.length]}` },
    }),
  },
];

async function measure(e: Endpoint, port: number, key: string, pid: number, keys?: KeyCursor, etag?: string) {
  const cpuBefore = cpuMs(pid);
  const run = await load(e, port, key, keys, etag);
  return {
    ...run,
    cpuUsPerReq: Math.round(((cpuMs(pid) - cpuBefore) * 1000) / Math.max(1, run.total)),
    rssMb: Math.round(rssMb(pid)),
    peakRssMb: Math.round(peakRssMb(pid)),
  };
}

const rowOf = (endpoint: string, bytes: number, run: Awaited<ReturnType<typeof measure>>, raw: { reqPerSec: number; p99: number }): Row => ({
  endpoint,
  bytes,
  reqPerSec: Math.round(run.reqPerSec),
  p50Ms: run.p50,
  p99Ms: run.p99,
  cpuUsPerReq: run.cpuUsPerReq,
  rawReqPerSec: Math.round(raw.reqPerSec),
  rawP99Ms: raw.p99,
  ratio: Number((run.reqPerSec / raw.reqPerSec).toFixed(3)),
  errors: run.bad,
  rssMb: run.rssMb,
  peakRssMb: run.peakRssMb,
});

/** One suite: a fresh data directory (seeded at scale or not), the service, the raw server, stock Apollo. */
async function runSuite(label: string, scale: boolean): Promise<Suite> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mgw-bench-'));
  // Quotas stay on. Variant B's 60 a minute is raised out of reach for the run, as an operator can,
  // but still counted (in memory, or by the Redis script), so metering is part of every figure.
  const env = serviceEnv({ dataDir, ports: [PORT_A, PORT_B], distributed: DISTRIBUTED, planLimits: { prediction: { pro: { perMinute: 1_000_000_000 } } } });
  // The CLI creates the key (and the schema) before the service starts, as an operator would.
  const { key, accountId } = createBenchKey(env);
  loadTrustedDocument(env, dataDir);
  let keys: string[] | undefined;
  let memory: object[] | undefined;
  if (scale) {
    const keysFile = path.join(dataDir, 'keys.txt');
    const seeded = spawnSync('node', [path.join(ROOT, 'bench/seed-scale.mjs'), dataDir, accountId, keysFile], { env, stdio: ['ignore', 'inherit', 'inherit'] });
    if (seeded.status !== 0) throw new Error('seeding failed');
    keys = fs.readFileSync(keysFile, 'utf8').split('\n');
    // What the process holds before any data and what each read model adds (bench/memory.mjs).
    const held = spawnSync('node', ['--expose-gc', ...shebangFlags(), path.join(ROOT, 'bench/memory.mjs'), dataDir, keysFile], {
      // As the bin starts the service: its V8 flags and glibc's arenas.
      env: { ...shebangVariables(), ...env },
      encoding: 'utf8',
    });
    if (held.status !== 0) throw new Error(`bench/memory.mjs failed: ${held.stderr}`);
    memory = JSON.parse(held.stdout) as object[];
  }

  let service = startService(env);
  let raw: ChildProcess | undefined;
  let stock: ChildProcess | undefined;
  try {
    await waitFor(`http://127.0.0.1:${PORT_A}/ready`);
    // Record each endpoint's answer: the raw server will write exactly these bytes.
    const bodies: Record<string, { type: string; base64: string; status?: number }> = {};
    const etags = new Map<Endpoint, string>();
    for (const e of ENDPOINTS) {
      const res = await fetch(`http://127.0.0.1:${e.port}${e.path}`, {
        method: e.method,
        headers: headersOf(e, key),
        ...(e.body ? { body: e.body } : {}),
      });
      if (!res.ok) throw new Error(`${e.name} answered ${res.status}: ${await res.text()}`);
      const recorded = { type: res.headers.get('content-type') ?? 'application/json', base64: Buffer.from(await res.arrayBuffer()).toString('base64') };
      if (e.revalidate) {
        // The raw server answers this path as the service will: 304, no body.
        const etag = res.headers.get('etag');
        if (!etag) throw new Error(`${e.name}: no ETag on its first answer`);
        etags.set(e, etag);
        bodies[`${e.method} ${rawPath(e)}`] = { ...recorded, base64: '', status: 304 };
      } else bodies[`${e.method} ${rawPath(e)}`] = recorded;
    }
    const bodiesFile = path.join(dataDir, 'bodies.json');
    fs.writeFileSync(bodiesFile, JSON.stringify(bodies));
    raw = start(['node', path.join(ROOT, 'bench/raw-server.mjs'), bodiesFile, String(PORT_RAW)], process.env, 0);
    await new Promise((r) => raw!.stdout!.once('data', r));
    if (ENDPOINTS.some((e) => e.stockApollo)) {
      stock = start(['node', path.join(ROOT, 'bench/stock-apollo.mjs'), String(PORT_STOCK)], { ...env, LOG_LEVEL: 'error' }, 0);
      await new Promise((r) => stock!.stdout!.once('data', r));
    }

    // Warm-up, not measured: the first seconds of load after a start pay for V8's compilation (the
    // first row measured cold cost 20-35 µs a request more than the same row a minute later).
    // The raw server too, so that neither side of the first ratio is measured cold.
    for (const e of SELECTED) {
      await load(e, e.port, key, undefined, etags.get(e), WARM_UP_SECONDS);
      await load(e, PORT_RAW, key, undefined, etags.get(e), WARM_UP_SECONDS);
    }

    const rows: Row[] = [];
    const speedups: Suite['speedups'] = [];
    const revalidations: Suite['revalidations'] = [];
    /**
     * `REPEAT` pairs of runs of `e`, the raw server's then the service's, and the row of the pair
     * with the median ratio, with every pair's ratio and p99. `rotation`: every request on another
     * key, the service's runs continuing through the keys where the one before stopped.
     */
    const measurePairs = async (e: Endpoint, name: string, bytes: number, etag?: string, rotation?: string[]) => {
      const serviceCursor = rotation && { keys: rotation, next: 0 };
      const pairs: { baseline: Awaited<ReturnType<typeof load>>; measured: Awaited<ReturnType<typeof measure>>; executed: number }[] = [];
      for (let i = 0; i < REPEAT; i++) {
        const baseline = await load(e, PORT_RAW, key, rotation && { keys: rotation, next: 0 }, etag);
        const executedBefore = await counter(e.port, 'mgw_graphql_requests_total', 'path="compiled"');
        const measured = await measure(e, e.port, key, workerPid(service), serviceCursor, etag);
        const executed = (await counter(e.port, 'mgw_graphql_requests_total', 'path="compiled"')) - executedBefore;
        pairs.push({ baseline, measured, executed });
      }
      const ratioOf = (pair: (typeof pairs)[number]) => pair.measured.reqPerSec / pair.baseline.reqPerSec;
      const byRatio = [...pairs].sort((x, y) => ratioOf(x) - ratioOf(y));
      const median = byRatio[Math.floor((byRatio.length - 1) / 2)]!;
      const spread =
        REPEAT > 1 ? { ratios: byRatio.map((pair) => ratioOf(pair).toFixed(3)).join(' '), p99s: byRatio.map((pair) => pair.measured.p99).join(' ') } : {};
      return { pairs, median, row: { ...rowOf(name, bytes, median.measured, median.baseline), ...spread } };
    };

    for (const e of SELECTED) {
      const bytes = Buffer.from(bodies[`${e.method} ${rawPath(e)}`]!.base64, 'base64').length;
      const etag = etags.get(e);
      const { pairs, median, row } = await measurePairs(e, e.name, bytes, etag);
      rows.push(row);
      if (etag) {
        // Every pair's answers count: how many were 304, and how many operations ran meanwhile.
        const sum = (of: (pair: (typeof pairs)[number]) => number) => pairs.reduce((total, pair) => total + of(pair), 0);
        revalidations.push({
          endpoint: e.name,
          requests: sum((pair) => pair.measured.total),
          answered304: sum((pair) => pair.measured.notModified ?? 0),
          executed: sum((pair) => pair.executed),
        });
      }
      if (e.stockApollo && stock) {
        const stockRun = await measure(e, PORT_STOCK, key, workerPid(stock));
        rows.push(rowOf(`${e.name}, stock Apollo`, bytes, stockRun, median.baseline));
        speedups.push({ endpoint: e.name, timesStockApollo: Number((median.measured.reqPerSec / stockRun.reqPerSec).toFixed(2)) });
      }
      if (keys && e === SELECTED[0]) {
        // Every request with another of the 100 000 keys: key lookups, then a full key cache and quota table.
        // Its raw baseline runs the same rotating client, so that the load generator's own cost per
        // request (a new set of headers each time) is on both sides of the ratio and of the tail.
        // Repeated as every row is: one 5 s run was the one figure of the table read from a single run.
        rows.push((await measurePairs(e, `${e.name}, ${keys.length} keys in rotation`, bytes, undefined, keys)).row);
      }
      process.stderr.write(`[${label}] measured ${e.name}\n`);
    }
    const peak = Math.round(peakRssMb(workerPid(service)));
    let usageCost: Suite['usageCost'];
    if (!scale && (!ONLY || ONLY.some((part) => 'usage'.includes(part)))) {
      await stop(service);
      usageCost = await measureUsageCost(env, key, (next) => (service = next));
    }
    // BENCH_ONLY='markets (page|tracing' measures these with one endpoint's row; the whole bench measures them too.
    let tracingCost: Suite['tracingCost'];
    if (!scale && (!ONLY || ONLY.includes('tracing'))) {
      await stop(service);
      tracingCost = await measureTracingCost(env, key, (next) => (service = next));
    }
    return { label, rows, speedups, revalidations, peakRssMb: peak, memory, ...(usageCost ? { usageCost } : {}), ...(tracingCost ? { tracingCost } : {}) };
  } finally {
    raw?.kill();
    stock?.kill();
    await stop(service);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

/** The rows the usage records' cost is measured on: a REST route and /graphql as Apollo Client sends it. */
const USAGE_COST_ROWS = ['A /markets (page of 100)', '/graphql (B markets, Apollo Client)'];

type Measured = Awaited<ReturnType<typeof measure>>;

/**
 * The service started once per setting, in the order given (each setting twice, alternated, so
 * drift in the machine falls on every side), each start measured on `endpoints` after a warm-up.
 */
async function measureAlternated<S extends string>(
  what: string,
  env: NodeJS.ProcessEnv,
  key: string,
  running: (service: ChildProcess) => void,
  endpoints: Endpoint[],
  order: readonly S[],
  settings: Record<S, NodeJS.ProcessEnv>,
): Promise<Record<S, Measured[][]>> {
  const runs = Object.fromEntries(order.map((s) => [s, [] as Measured[][]])) as Record<S, Measured[][]>;
  for (const setting of order) {
    const service = startService({ ...env, ...settings[setting] });
    running(service);
    try {
      await waitFor(`http://127.0.0.1:${PORT_A}/ready`);
      const measured = [];
      for (const e of endpoints) {
        await load({ ...e }, e.port, key); // warm-up: the first run after a start pays for compilation
        measured.push(await measure(e, e.port, key, workerPid(service)));
      }
      runs[setting].push(measured);
    } finally {
      await stop(service);
    }
    process.stderr.write(`[${what}] measured with ${setting}\n`);
  }
  return runs;
}

/** The mean of one figure of the `i`th endpoint over a setting's starts. */
const meanOf = (runs: Measured[][], i: number, field: 'cpuUsPerReq' | 'p99') => runs.reduce((sum, run) => sum + run[i]![field], 0) / runs.length;

/**
 * The hot-path cost of counting usage: the service started with USAGE_RECORDING off,
 * on, off, on, each start measured on the same rows after a warm-up, the two runs of a setting
 * averaged, so drift in the machine falls on both sides.
 */
async function measureUsageCost(env: NodeJS.ProcessEnv, key: string, running: (service: ChildProcess) => void): Promise<Suite['usageCost']> {
  const endpoints = ENDPOINTS.filter((e) => USAGE_COST_ROWS.includes(e.name));
  const runs = await measureAlternated('usage cost', env, key, running, endpoints, ['off', 'on', 'off', 'on'] as const, {
    off: { USAGE_RECORDING: 'off' },
    on: { USAGE_RECORDING: 'on' },
  });
  const rows = endpoints.map((e, i) => ({
    endpoint: e.name,
    cpuUsPerReqOff: Math.round(meanOf(runs.off, i, 'cpuUsPerReq')),
    cpuUsPerReqOn: Math.round(meanOf(runs.on, i, 'cpuUsPerReq')),
    costUs: Math.round(meanOf(runs.on, i, 'cpuUsPerReq') - meanOf(runs.off, i, 'cpuUsPerReq')),
    p99MsOff: meanOf(runs.off, i, 'p99'),
    p99MsOn: meanOf(runs.on, i, 'p99'),
  }));
  return { rows, countAlone: await benchUsageCount() };
}

/** A loopback OTLP/HTTP collector that takes every export (200, nothing kept), as a healthy one does. */
async function startLoopbackCollector(): Promise<{ url: string; exports: () => number; close: () => void }> {
  let exports = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      exports++;
      res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, exports: () => exports, close: () => server.close() };
}

/**
 * What tracing costs a request: the service started with traces unset, sampled at 1 %
 * (traceidratio 0.01) and at 100 %, alternated, twice each, against a loopback collector.
 */
async function measureTracingCost(env: NodeJS.ProcessEnv, key: string, running: (service: ChildProcess) => void): Promise<Suite['tracingCost']> {
  const endpoints = ENDPOINTS.filter((e) => USAGE_COST_ROWS.includes(e.name));
  const collector = await startLoopbackCollector();
  try {
    const traced = (ratio: string) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: ratio });
    const order = ['unset', '1 %', '100 %', 'unset', '1 %', '100 %'] as const;
    const runs = await measureAlternated('tracing cost', env, key, running, endpoints, order, { unset: {}, '1 %': traced('0.01'), '100 %': traced('1') });
    if (collector.exports() === 0) throw new Error('the loopback collector received no export: tracing was not on');
    return endpoints.map((e, i) => ({
      endpoint: e.name,
      cpuUsPerReqUnset: Math.round(meanOf(runs.unset, i, 'cpuUsPerReq')),
      cpuUsPerReq1pct: Math.round(meanOf(runs['1 %'], i, 'cpuUsPerReq')),
      cpuUsPerReq100pct: Math.round(meanOf(runs['100 %'], i, 'cpuUsPerReq')),
      p99MsUnset: meanOf(runs.unset, i, 'p99'),
      p99Ms1pct: meanOf(runs['1 %'], i, 'p99'),
      p99Ms100pct: meanOf(runs['100 %'], i, 'p99'),
    }));
  } finally {
    collector.close();
  }
}

function print(suite: Suite): void {
  console.log(`\n${suite.label}: service peak RSS ${suite.peakRssMb} MB`);
  console.table(suite.rows);
  if (suite.memory) {
    console.log('held in memory, step by step (MB after full collections; bench/memory.mjs):');
    console.table(suite.memory);
  }
  for (const x of suite.speedups) console.log(`${x.endpoint}: ${x.timesStockApollo} x stock Apollo Server on the same query, schema and data`);
  for (const x of suite.revalidations)
    console.log(`${x.endpoint}: ${x.answered304} of ${x.requests} answers were 304; ${x.executed} operations executed meanwhile (one per data change)`);
  if (suite.tracingCost) {
    console.log('traces: CPU per request unset, sampled at 1 % and at 100 % (two starts of each, alternated, averaged; loopback collector):');
    console.table(suite.tracingCost);
  }
  if (suite.usageCost) {
    console.log('usage records: CPU per request with USAGE_RECORDING off and on (two starts of each, alternated, averaged):');
    console.table(suite.usageCost.rows);
    console.log(
      `usage records: the count alone, ${suite.usageCost.countAlone.nsPerCount} ns a request (${suite.usageCost.countAlone.calls} calls in this process)`,
    );
  }
}

/** How each endpoint's CPU per request grows from the demo data to the seeded scale. */
function growth(base: Suite, scaled: Suite) {
  return scaled.rows.map((row) => {
    const before = base.rows.find((r) => r.endpoint === row.endpoint) ?? base.rows.find((r) => row.endpoint.startsWith(`${r.endpoint},`));
    return {
      endpoint: row.endpoint,
      cpuUsPerReqBase: before?.cpuUsPerReq,
      cpuUsPerReqScale: row.cpuUsPerReq,
      growth: before ? Number((row.cpuUsPerReq / before.cpuUsPerReq).toFixed(2)) : undefined,
      p99MsScale: row.p99Ms,
      ratioScale: row.ratio,
    };
  });
}

async function main(): Promise<void> {
  if (!fs.existsSync(CLI)) throw new Error('run `npm run build` first (npm run bench does)');
  // Every thread (-a), not only the main one: V8's GC and compiler threads, started with the
  // process, stayed free to run on core 0, where they took the service's core in 4 ms slices
  // (`perf sched`: 197 ms of a 5 s row, and the service's main thread waiting up to 20 ms).
  if (HAS_TASKSET) spawnSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
  const mode = DISTRIBUTED ? 'postgres+redis' : 'embedded';
  // BENCH_ONLY naming no endpoint (webhooks, subscribers, links) skips the HTTP rows.
  const suites = SELECTED.length > 0 ? [await runSuite(`${mode}, demo data`, false)] : [];
  if (suites[0]) print(suites[0]);
  let scaleGrowth: ReturnType<typeof growth> | undefined;
  if (SCALE && suites[0]) {
    suites.push(await runSuite(`${mode}, at scale (10 000 markets of each kind, 1 000 alerts on the account, 100 000 keys)`, true));
    print(suites[1]!);
    scaleGrowth = growth(suites[0]!, suites[1]!);
    console.log('\ncost growth from the demo data to the scale:');
    console.table(scaleGrowth);
  }
  // Webhooks: 1 000 triggers delivered, and ingest beside a slow receiver (embedded store; see bench/webhooks.ts).
  const webhooks = !ONLY || ONLY.some((part) => 'webhooks'.includes(part)) ? await benchWebhooks() : undefined;
  if (webhooks) {
    console.log('\nwebhooks (embedded store, receiver in another process):');
    console.table(webhooks);
  }
  // Subscriptions: 2 000 WebSocket subscribers on one instance (bench/subscribers.ts).
  const subscribers = !ONLY || ONLY.some((part) => 'subscribers'.includes(part)) ? await benchSubscribers() : undefined;
  if (subscribers) {
    console.log('\nsubscriptions (embedded, one instance):');
    console.table(subscribers);
  }
  // Market links: 10 000 + 10 000 markets through the real linker and store (bench/links.ts).
  const links = !ONLY || ONLY.some((part) => 'links'.includes(part)) ? await benchLinks() : undefined;
  if (links) {
    console.log('\nmarket links (embedded store, 10 000 Kalshi-worded and 10 000 Polymarket-worded markets):');
    console.table(links.rows);
    console.table(links.stored);
  }
  const when = new Date().toISOString();
  const report = {
    when,
    mode,
    seconds: SECONDS,
    connections: CONNECTIONS,
    pinned: HAS_TASKSET,
    node: process.version,
    suites,
    scaleGrowth,
    webhooks,
    subscribers,
    links,
  };
  console.log(`\nmode ${mode}, ${SECONDS} s per run, ${CONNECTIONS} connections, pinned: ${HAS_TASKSET}`);
  const out = path.join(ROOT, 'bench-results', `${when.replace(/[:.]/g, '-')}-${mode}${SCALE ? '-scale' : ''}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify(report, null, 2));
  console.log(`written to ${path.relative(ROOT, out)}`);
}

main().catch((error: unknown) => {
  console.error(`bench failed: ${(error as Error).message}`);
  process.exit(1);
});
