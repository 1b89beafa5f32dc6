/**
 * `npm run bench`: the real service (embedded mode, demo feed, a real key, quotas on) against a raw
 * node:http server writing the very same bytes, measured in alternation with autocannon, the servers
 * pinned to core 0 and the load generator to core 1 where taskset exists. Prints req/s, p50, p99,
 * server CPU per request and peak RSS, with each endpoint's ratio to the raw server of the same run,
 * and writes the table as JSON under bench-results/.
 *
 *   npm run bench                      embedded (SQLite, in-process quotas)
 *   npm run bench -- --distributed     PostgreSQL (DATABASE_URL or the local test database) + Redis
 *   BENCH_SECONDS=10 BENCH_CONNECTIONS=50 npm run bench
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DISTRIBUTED = process.argv.includes('--distributed');
const PORT_A = 4600;
const PORT_B = 4601;
const PORT_RAW = 4602;
const PORT_STOCK = 4603;
const ROOT = path.resolve(import.meta.dirname, '..');
const CLI = path.join(ROOT, 'dist/src/cli/main.js');
const HAS_TASKSET = spawnSync('taskset', ['-V']).status === 0 && os.cpus().length >= 2;

interface Endpoint {
  name: string;
  port: number;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** Also measured on stock Apollo Server over the same schema and data (bench/stock-apollo.mjs). */
  stockApollo?: boolean;
}

const SYMBOLS = 'BTC/USD,ETH/USD,SOL/USD,XRP/USD,EUR/USD,GBP/USD,USD/JPY,AAPL/USD,MSFT/USD,NVDA/USD';
const B_MARKETS_QUERY = '{ predictionMarkets(limit: 50) { count items { question probability probabilityPct volume24h signal url source } } }';
const ENDPOINTS: Endpoint[] = [
  { name: 'A /markets', port: PORT_A, method: 'GET', path: '/api/v1/markets' },
  { name: 'A /brief (10 symbols)', port: PORT_A, method: 'GET', path: `/api/v1/brief?symbols=${SYMBOLS}&limit=10` },
  { name: 'A /alerts', port: PORT_A, method: 'GET', path: '/api/v1/alerts' },
  { name: 'B /markets', port: PORT_B, method: 'GET', path: '/api/v1/markets' },
  { name: 'B /alerts', port: PORT_B, method: 'GET', path: '/api/v1/alerts' },
  { name: 'B /brief', port: PORT_B, method: 'GET', path: '/api/v1/brief' },
  { name: '/graphql (B markets)', port: PORT_B, method: 'POST', path: '/graphql', body: JSON.stringify({ query: B_MARKETS_QUERY }), stockApollo: true },
];

/** The raw server serves both variants from one port: the variant is the first path segment there. */
const rawPath = (e: Endpoint) => `/${e.port === PORT_A ? 'a' : 'b'}${e.path}`;

const pinned = (core: number, argv: string[]) => (HAS_TASKSET ? ['taskset', ['-c', String(core), ...argv]] : [argv[0]!, argv.slice(1)]) as [string, string[]];

/** utime + stime of a process, in ms (Linux /proc). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks at USER_HZ = 100
}
const peakRssMb = (pid: number) => Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

async function waitFor(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await fetch(url).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} not ready within ${timeoutMs} ms`);
}

function start(argv: string[], env: NodeJS.ProcessEnv, core: number): ChildProcess {
  const [cmd, args] = pinned(core, argv);
  const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout?.resume();
  return child;
}

/** The process doing the work: taskset execs node, so its pid is the child's. */
const workerPid = (child: ChildProcess) => child.pid!;

async function load(e: Endpoint, port: number, key: string) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${port === PORT_RAW ? rawPath(e) : port === PORT_STOCK ? '/' : e.path}`,
    method: e.method,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { authorization: `Bearer ${key}`, ...(e.body ? { 'content-type': 'application/json' } : {}) },
    ...(e.body ? { body: e.body } : {}),
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  return { reqPerSec: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, total: result.requests.total, bad };
}

async function main(): Promise<void> {
  if (!fs.existsSync(CLI)) throw new Error('run `npm run build` first (npm run bench does)');
  if (HAS_TASKSET) spawnSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mgw-bench-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    MARKET_DATA_PORT: String(PORT_A),
    PREDICTION_PORT: String(PORT_B),
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    // Quotas stay on; variant B's 60 a minute is lifted for the run, as an operator would.
    PLAN_LIMITS: JSON.stringify({ prediction: { pro: { perMinute: null } } }),
    ...(DISTRIBUTED
      ? { DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test', REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0' }
      : {}),
  };
  const service = start(['node', CLI, 'start'], env, 0);
  let raw: ChildProcess | undefined;
  let stock: ChildProcess | undefined;
  try {
    await waitFor(`http://127.0.0.1:${PORT_A}/ready`);
    const created = spawnSync('node', [CLI, 'keys', 'create', '--plan', 'enterprise', '--prediction-plan', 'pro', '--name', 'bench', '--json'], { env, encoding: 'utf8' });
    const key = (JSON.parse(created.stdout) as { key: string }).key;

    // Record each endpoint's answer: the raw server will write exactly these bytes.
    const bodies: Record<string, { type: string; base64: string }> = {};
    for (const e of ENDPOINTS) {
      const res = await fetch(`http://127.0.0.1:${e.port}${e.path}`, {
        method: e.method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(e.body ? { body: e.body } : {}),
      });
      if (!res.ok) throw new Error(`${e.name} answered ${res.status}: ${await res.text()}`);
      bodies[`${e.method} ${rawPath(e)}`] = { type: res.headers.get('content-type') ?? 'application/json', base64: Buffer.from(await res.arrayBuffer()).toString('base64') };
    }
    const bodiesFile = path.join(dataDir, 'bodies.json');
    fs.writeFileSync(bodiesFile, JSON.stringify(bodies));
    raw = start(['node', path.join(ROOT, 'bench/raw-server.mjs'), bodiesFile, String(PORT_RAW)], process.env, 0);
    await new Promise((r) => raw!.stdout!.once('data', r));
    if (ENDPOINTS.some((e) => e.stockApollo)) {
      stock = start(['node', path.join(ROOT, 'bench/stock-apollo.mjs'), String(PORT_STOCK)], { ...env, LOG_LEVEL: 'error' }, 0);
      await new Promise((r) => stock!.stdout!.once('data', r));
    }

    const rows = [];
    const speedups: { endpoint: string; timesStockApollo: number }[] = [];
    for (const e of ENDPOINTS) {
      const bytes = Buffer.from(bodies[`${e.method} ${rawPath(e)}`]!.base64, 'base64').length;
      const baseline = await load(e, PORT_RAW, key);
      const cpuBefore = cpuMs(workerPid(service));
      const measured = await load(e, e.port, key);
      const cpuPerReqUs = ((cpuMs(workerPid(service)) - cpuBefore) * 1000) / Math.max(1, measured.total);
      rows.push({
        endpoint: e.name,
        bytes,
        reqPerSec: Math.round(measured.reqPerSec),
        p50Ms: measured.p50,
        p99Ms: measured.p99,
        cpuUsPerReq: Math.round(cpuPerReqUs),
        rawReqPerSec: Math.round(baseline.reqPerSec),
        ratio: Number((measured.reqPerSec / baseline.reqPerSec).toFixed(3)),
        errors: measured.bad,
      });
      if (e.stockApollo && stock) {
        const cpuStockBefore = cpuMs(workerPid(stock));
        const stockRun = await load(e, PORT_STOCK, key);
        rows.push({
          endpoint: `${e.name}, stock Apollo`,
          bytes,
          reqPerSec: Math.round(stockRun.reqPerSec),
          p50Ms: stockRun.p50,
          p99Ms: stockRun.p99,
          cpuUsPerReq: Math.round(((cpuMs(workerPid(stock)) - cpuStockBefore) * 1000) / Math.max(1, stockRun.total)),
          rawReqPerSec: Math.round(baseline.reqPerSec),
          ratio: Number((stockRun.reqPerSec / baseline.reqPerSec).toFixed(3)),
          errors: stockRun.bad,
        });
        speedups.push({ endpoint: e.name, timesStockApollo: Number((measured.reqPerSec / stockRun.reqPerSec).toFixed(2)) });
      }
      process.stderr.write(`measured ${e.name}\n`);
    }
    const report = {
      when: new Date().toISOString(),
      mode: DISTRIBUTED ? 'postgres+redis' : 'embedded',
      seconds: SECONDS,
      connections: CONNECTIONS,
      pinned: HAS_TASKSET,
      node: process.version,
      peakRssMb: Math.round(peakRssMb(workerPid(service))),
      rows,
      speedups,
    };
    console.table(rows);
    for (const x of speedups) console.log(`${x.endpoint}: ${x.timesStockApollo} x stock Apollo Server on the same query, schema and data`);
    console.log(`mode ${report.mode}, ${SECONDS} s per run, ${CONNECTIONS} connections, pinned: ${HAS_TASKSET}, service peak RSS ${report.peakRssMb} MB`);
    const out = path.join(ROOT, 'bench-results', `${report.when.replace(/[:.]/g, '-')}-${report.mode}.json`);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify(report, null, 2));
    console.log(`written to ${path.relative(ROOT, out)}`);
  } finally {
    raw?.kill();
    stock?.kill();
    service.kill('SIGTERM');
    await new Promise((r) => service.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`bench failed: ${(error as Error).message}`);
  process.exit(1);
});
