/**
 * The subscription rows of `npm run bench`: the real service (embedded, the demo feed's default
 * tick of 2 s) with 2 000 WebSocket subscribers, each on quotes(["BTC/USD"]) through graphql-ws's client.
 * Tick-to-client latency is the arrival time minus the quote's own time (the service stamps each
 * quote when its tick makes it; both clocks are this machine's). CPU per message is the service's
 * CPU time over the messages it sent; RSS its peak.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { cpuMs, createBenchKey, peakRssMb, percentile, serviceEnv, startService, waitFor } from './harness.js';

const SUBSCRIBERS = 2_000;
const MEASURE_MS = 20_000;
const PORTS: [number, number] = [4610, 4611];

export async function benchSubscribers() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mgw-bench-subs-'));
  const env = {
    ...serviceEnv({ dataDir, ports: PORTS, distributed: false, planLimits: { marketData: { enterprise: { subscriptions: SUBSCRIBERS } } } }),
    // Every subscriber comes from 127.0.0.1.
    MAX_CONNECTIONS_PER_CLIENT: '0',
  };
  const { key } = createBenchKey(env);
  const service = startService(env);
  const clients: Client[] = [];
  try {
    await waitFor(`http://127.0.0.1:${PORTS[0]}/ready`);
    const latencies: number[] = [];
    let measuring = false;
    const subscribed: Promise<void>[] = [];
    for (let i = 0; i < SUBSCRIBERS; i++) {
      const client = createClient({
        url: `ws://127.0.0.1:${PORTS[0]}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { Authorization: `Bearer ${key}` },
        retryAttempts: 0,
        lazy: false,
        onNonLazyError: () => undefined,
      });
      clients.push(client);
      subscribed.push(
        new Promise<void>((resolve) => {
          client.subscribe<{ quotes: { time: string } }>(
            { query: 'subscription { quotes(symbols: ["BTC/USD"]) { price time } }' },
            {
              next: (message) => {
                resolve();
                if (measuring && message.data) latencies.push(Date.now() - Date.parse(message.data.quotes.time));
              },
              error: () => resolve(),
              complete: () => undefined,
            },
          );
        }),
      );
    }
    // Every subscriber has had a first message: all are subscribed.
    await Promise.race([Promise.all(subscribed), new Promise((r) => setTimeout(r, 60_000))]);
    const pid = service.pid!;
    const cpuBefore = cpuMs(pid);
    measuring = true;
    await new Promise((r) => setTimeout(r, MEASURE_MS));
    measuring = false;
    const cpu = cpuMs(pid) - cpuBefore;
    const sorted = latencies.sort((a, b) => a - b);
    return [
      { measure: 'WebSocket subscribers on one instance (quotes of BTC/USD, demo tick 2 s)', value: SUBSCRIBERS, unit: '' },
      { measure: `messages received in ${MEASURE_MS / 1000} s`, value: sorted.length, unit: '' },
      { measure: 'tick-to-client latency p50', value: percentile(sorted, 0.5), unit: 'ms' },
      { measure: 'tick-to-client latency p99', value: percentile(sorted, 0.99), unit: 'ms' },
      { measure: 'service CPU per message', value: Number(((cpu * 1000) / Math.max(1, sorted.length)).toFixed(1)), unit: 'µs' },
      { measure: 'service peak RSS', value: Math.round(peakRssMb(pid)), unit: 'MB' },
    ];
  } finally {
    await Promise.all(clients.map((c) => c.dispose()));
    service.kill('SIGTERM');
    await new Promise((r) => service.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
