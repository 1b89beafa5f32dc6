/**
 * `npm run soak`: sustained mixed load on the real service (both facades and /graphql, quotas on),
 * printing at each interval the heap after the latest major GC, RSS, open handles, throughput and
 * errors, then whether the heap grew beyond noise. Not part of `npm test`.
 *
 *   npm run soak                                  10 minutes, embedded
 *   SOAK_MINUTES=2 SOAK_RATE=3000 npm run soak    shorter, another request rate (per second)
 *   npm run soak -- --distributed                 on PostgreSQL + Redis
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { CLI, createBenchKey, serviceEnv, startService, waitFor } from './harness.js';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const INTERVAL_S = Number(process.env.SOAK_INTERVAL_S ?? 30);
const RATE = Number(process.env.SOAK_RATE ?? 2_000);
const DISTRIBUTED = process.argv.includes('--distributed');
const [PORT_A, PORT_B] = [4610, 4611];

async function scrape(port: number): Promise<Record<string, number>> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  const serverErrors = [...text.matchAll(/^mgw_http_requests_total\{[^}]*status="5\d\d"\} (\S+)$/gm)].reduce((n, m) => n + Number(m[1]), 0);
  return {
    heapAfterGcMb: value('mgw_heap_used_after_major_gc_bytes') / 1048576,
    rssMb: value('mgw_process_resident_memory_bytes') / 1048576,
    handles: value('mgw_nodejs_active_handles_total'),
    serverErrors,
  };
}

async function main(): Promise<void> {
  if (!fs.existsSync(CLI)) throw new Error('run `npm run build` first (npm run soak does)');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mgw-soak-'));
  // Every window lifted: the soak looks for leaks, not refusals (which the tests cover).
  const lifted = { perMinute: null, perDay: null };
  const env = serviceEnv({
    dataDir,
    ports: [PORT_A, PORT_B],
    distributed: DISTRIBUTED,
    planLimits: { marketData: { enterprise: lifted }, prediction: { pro: lifted } },
  });
  const { key } = createBenchKey(env);
  const service = startService(env);
  try {
    await waitFor(`http://127.0.0.1:${PORT_A}/ready`);
    const auth = { authorization: `Bearer ${key}` };
    const mixed = (port: number, paths: string[], graphql?: string) =>
      autocannon({
        url: `http://127.0.0.1:${port}`,
        connections: 8,
        overallRate: RATE / 2,
        duration: INTERVAL_S,
        headers: auth,
        requests: [
          ...paths.map((p) => ({ method: 'GET' as const, path: p })),
          ...(graphql
            ? [
                {
                  method: 'POST' as const,
                  path: '/graphql',
                  headers: { ...auth, 'content-type': 'application/json' },
                  body: JSON.stringify({ query: graphql }),
                },
              ]
            : []),
        ],
      });
    const rounds = Math.max(1, Math.round((MINUTES * 60) / INTERVAL_S));
    const samples: Record<string, number>[] = [];
    console.log(`soak: ${MINUTES} min, ${RATE} req/s mixed over both facades and /graphql, ${DISTRIBUTED ? 'postgres+redis' : 'embedded'}`);
    for (let round = 1; round <= rounds; round++) {
      const [a, b] = await Promise.all([
        mixed(
          PORT_A,
          ['/api/v1/markets?limit=100', '/api/v1/brief?symbols=BTC/USD,ETH/USD,EUR/USD&interval=4h', '/api/v1/alerts', '/api/v1/markets?type=crypto&offset=3'],
          '{ assetMarkets(limit: 20) { total items { symbol price } } }',
        ),
        mixed(
          PORT_B,
          ['/api/v1/markets', '/api/v1/alerts?limit=50', '/api/v1/brief', '/api/v1/nope'],
          '{ predictionMarkets(limit: 50) { count items { question signal } } }',
        ),
      ]);
      const m = await scrape(PORT_A);
      const sample = {
        minute: Number(((round * INTERVAL_S) / 60).toFixed(1)),
        reqPerSec: Math.round(a.requests.average + b.requests.average),
        clientErrors: a.errors + a.timeouts + b.errors + b.timeouts,
        ...m,
      };
      samples.push(sample);
      console.log(
        `${String(sample.minute).padStart(5)} min  ${String(sample.reqPerSec).padStart(5)} req/s  heap after GC ${m.heapAfterGcMb!.toFixed(1)} MB  RSS ${m.rssMb!.toFixed(0)} MB  handles ${m.handles}  5xx ${m.serverErrors}  client errors ${sample.clientErrors}`,
      );
    }
    // Growth past the warm-up (the first fifth): the heap after GC should stay within noise.
    const settled = samples.slice(Math.floor(samples.length / 5));
    const first = settled[0]!.heapAfterGcMb!;
    const last = settled.at(-1)!.heapAfterGcMb!;
    const peak = Math.max(...settled.map((s) => s.heapAfterGcMb!));
    console.log(
      `heap after GC from ${first.toFixed(1)} to ${last.toFixed(1)} MB after warm-up (peak ${peak.toFixed(1)} MB, ${(((last - first) / first) * 100).toFixed(1)} %); 5xx ${samples.at(-1)!.serverErrors}`,
    );
    const out = path.resolve(import.meta.dirname, '..', 'bench-results', `${new Date().toISOString().replace(/[:.]/g, '-')}-soak.json`);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify({ minutes: MINUTES, rate: RATE, distributed: DISTRIBUTED, samples }, null, 2));
    console.log(`written to ${out}`);
  } finally {
    service.kill('SIGTERM');
    await new Promise((r) => service.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`soak failed: ${(error as Error).message}`);
  process.exit(1);
});
