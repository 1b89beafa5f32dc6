/**
 * The process as a process manager and a terminal see it: `npm start` signalled with SIGTERM leaves
 * nothing running and frees both ports; Ctrl-C (SIGINT to the whole foreground group: npm, which
 * forwards it, and the server) stops it gracefully within a second with subscriptions open; a taken
 * port or one port for both variants stops start-up with one clear line, non-zero, before the store
 * is even opened.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { CLI_MAIN } from '../support/cli.js';
import { cliKey } from '../support/cli-in-process.js';
import { tempDataDir } from '../support/engines.js';
import { killStartedProcesses, startProcess as start } from '../support/process.js';
import { within } from '../support/wait.js';

afterEach(killStartedProcesses);

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const portRefuses = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

it('SIGTERM to `npm start` stops the server itself: exit 0, no process left, both ports free, one line on shutdown', async () => {
  const run = start('npm', ['start', '--silent'], { DATA_DIR: tempDataDir(), MARKET_DATA_PORT: '0', PREDICTION_PORT: '0' });
  await within(60_000, () => run.output().includes('market-gateway listening') || run.child.exitCode !== null);
  expect(run.output()).toContain('market-gateway listening');
  const line = JSON.parse(
    run
      .output()
      .split('\n')
      .find((l) => l.includes('market-gateway listening'))!,
  ) as { pid: number; marketData: string; prediction: string; v8Heap: unknown; mallocArenaMax: unknown };
  // npm start runs the bin, whose shebang sets V8's heap and glibc's arenas (src/config/v8-heap.ts).
  expect(line.v8Heap).toEqual({ semiSpaceMb: 16, heapGrowingPercent: 35 });
  expect(line.mallocArenaMax).toBe('2');
  const ports = [new URL(line.marketData).port, new URL(line.prediction).port].map(Number);
  expect(line.pid).not.toBe(run.child.pid); // npm's child, not npm
  expect(await portRefuses(ports[0]!)).toBe(false);

  run.child.kill('SIGTERM');
  expect(await run.exited).toBe(0);
  await within(15_000, () => !alive(line.pid));
  for (const port of ports) expect(await portRefuses(port)).toBe(true);
  expect(run.output()).toMatch(/"msg":"market-gateway stopped"/);
});

it('Ctrl-C to `npm start` (SIGINT to the process group) with an SSE stream and a WebSocket subscription open: exit 0, the stopped line, within a second', async () => {
  const env = { DATA_DIR: tempDataDir(), MARKET_DATA_PORT: '0', PREDICTION_PORT: '0', DEMO_TICK_MS: '100' };
  const { key } = await cliKey(env, '--plan', 'pro');
  const run = start('npm', ['start', '--silent'], env, { group: true });
  const pgid = run.child.pid!;
  const received: string[] = [];
  const wsCloses: number[] = [];
  const sse = new AbortController();
  let client: ReturnType<typeof createClient> | undefined;
  try {
    await within(60_000, () => run.output().includes('market-gateway listening') || run.child.exitCode !== null);
    const line = run
      .output()
      .split('\n')
      .find((l) => l.includes('market-gateway listening'));
    const origin = new URL((JSON.parse(line!) as { marketData: string }).marketData).origin;
    const query = 'subscription { quotes(symbols: ["BTC/USD"]) { price } }';
    const stream = await fetch(`${origin}/graphql/stream`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query }),
      signal: sse.signal,
    });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    const sseEnded = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return true;
        received.push(`sse ${Buffer.from(value).toString()}`);
      }
    })().catch(() => false);
    client = createClient({
      url: `${origin.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { Authorization: `Bearer ${key}` },
      retryAttempts: 0,
      lazy: false,
      onNonLazyError: () => undefined,
      on: { closed: (event) => void wsCloses.push((event as { code: number }).code) },
    });
    client.subscribe({ query }, { next: () => void received.push('ws'), error: () => undefined, complete: () => undefined });
    await within(20_000, () => received.includes('ws') && received.some((r) => r.startsWith('sse') && r.includes('price')));

    // What a terminal does on Ctrl-C: SIGINT to every process of the foreground group.
    const signalled = Date.now();
    process.kill(-pgid, 'SIGINT');
    expect(await run.exited).toBe(0);
    const stopMs = Date.now() - signalled;
    expect(run.output()).toMatch(/"msg":"market-gateway stopped"/);
    expect(run.output()).not.toContain('exiting without waiting');
    expect(await sseEnded).toBe(true); // the stream ended, not cut
    await within(5_000, () => wsCloses.length > 0);
    expect(wsCloses[0]).toBe(1001);
    // Well under a second on an idle machine (about 100 ms); the bound is the product's promise.
    expect(stopMs).toBeLessThan(1_000);
  } finally {
    sse.abort();
    await client?.dispose();
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // the group is gone
    }
  }
}, 90_000);

describe('start-up that cannot bind writes nothing', () => {
  let blocker: net.Server;
  beforeEach(async () => {
    blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  });
  afterEach(() => new Promise<void>((resolve) => blocker.close(() => resolve())));

  it('the second port taken: exit 1 with one line naming it, and the data directory untouched', async () => {
    const taken = (blocker.address() as net.AddressInfo).port;
    const dataDir = path.join(tempDataDir(), 'fresh');
    const run = start(process.execPath, [CLI_MAIN, 'start'], { DATA_DIR: dataDir, MARKET_DATA_PORT: '0', PREDICTION_PORT: String(taken) });
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain(`PREDICTION_PORT: port ${taken} on 127.0.0.1 is already in use`);
    expect(run.output().trim().split('\n')).toHaveLength(1);
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('one port for both variants is a configuration error', async () => {
    const dataDir = path.join(tempDataDir(), 'fresh');
    const run = start(process.execPath, [CLI_MAIN, 'start'], { DATA_DIR: dataDir, MARKET_DATA_PORT: '4555', PREDICTION_PORT: '4555' });
    expect(await run.exited).toBe(1);
    expect(run.output()).toMatch(/MARKET_DATA_PORT and PREDICTION_PORT are both 4555/);
    expect(fs.existsSync(dataDir)).toBe(false);
  });
});

it('for a person (LOG_FORMAT=pretty, as on a terminal) the listening line is short and followed by where to go', async () => {
  const run = start(process.execPath, [CLI_MAIN, 'start'], { DATA_DIR: tempDataDir(), MARKET_DATA_PORT: '0', PREDICTION_PORT: '0', LOG_FORMAT: 'pretty' });
  await within(60_000, () => run.output().includes('Logs follow.') || run.child.exitCode !== null);
  const output = run.output();
  expect(output).toMatch(/INFO.*market-gateway listening.*"store":"SQLite [^"]+".*"startupMs":\d+/);
  expect(output).not.toMatch(/mallocArenaMax|openFiles|v8Heap/);
  const port = /market data on :(\d+)/.exec(output)![1];
  for (const path of ['/account', '/docs', '/graphiql', '/api/v1']) expect(output).toContain(`http://localhost:${port}${path}`);
  run.child.kill('SIGTERM');
  expect(await run.exited).toBe(0);
});
