/**
 * What a collector that never answers costs in memory: the built service with every span sampled
 * and OTEL_EXPORTER_OTLP_ENDPOINT at a loopback receiver that reads each export and never answers,
 * 20 000 requests (50 at a time), and its RSS and heap after a major GC from its own /metrics,
 * before and after; the same with traces unset. Prints one JSON line per run.
 *
 *   npm run build && node bench/otel-memory.mjs
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';

const REQUESTS = 20_000;
const mb = (bytes) => Math.round((bytes / 1048576) * 10) / 10;

async function hungCollector() {
  const held = [];
  const server = createServer((req, res) => {
    req.resume();
    held.push(res); // never answered
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

async function figures(base) {
  const text = await (await fetch(`${base}/metrics`)).text();
  const value = (name) =>
    Number(
      text
        .split('\n')
        .find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`))
        ?.split(' ')
        .at(-1) ?? Number.NaN,
    );
  const dropped = text
    .split('\n')
    .filter((l) => l.startsWith('mgw_otel_spans_dropped_total{'))
    .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
  return {
    rssMb: mb(value('mgw_process_resident_memory_bytes')),
    heapAfterGcMb: mb(value('mgw_heap_used_after_major_gc_bytes')),
    dropped,
    queued: value('mgw_otel_span_queue_size'),
  };
}

async function run(name, otel) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mgw-otel-memory-'));
  const child = spawn(process.execPath, ['dist/src/cli/main.js', 'start'], {
    env: {
      ...process.env,
      ...otel,
      DATA_DIR: dataDir,
      MARKET_DATA_PORT: '0',
      PREDICTION_PORT: '0',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      NODE_ENV: 'production',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const base = await new Promise((resolve) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        const line = out.split('\n').find((l) => l.includes('market-gateway listening'));
        if (line) resolve(new URL(JSON.parse(line).marketData).origin);
      });
    });
    const before = await figures(base);
    let sent = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (sent++ < REQUESTS) await (await fetch(`${base}/health`)).arrayBuffer();
      }),
    );
    const after = await figures(base);
    console.log(JSON.stringify({ run: name, requests: REQUESTS, before, after }));
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const collector = await hungCollector();
try {
  await run('traces unset', {});
  await run('100 % sampled, collector hung', {
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    OTEL_TRACES_SAMPLER: 'always_on',
    OTEL_METRIC_EXPORT_INTERVAL: '1000',
  });
} finally {
  collector.close();
}
