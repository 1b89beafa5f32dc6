/**
 * SIGTERM to `market-gateway start` with a subscription open: the client is told 1001 (going
 * away) and the process exits 0 without waiting on the open connection.
 */
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { cliKey } from '../support/cli-in-process.js';
import { spawnService } from '../support/child-service.js';
import { tempDataDir } from '../support/engines.js';
import { within } from '../support/wait.js';

it('closes open subscriptions with 1001 and exits 0', async () => {
  const env = { DATA_DIR: tempDataDir(), DEMO_TICK_MS: '100' };
  const { key } = await cliKey(env, '--plan', 'pro');
  const service = await spawnService(env);
  const closes: number[] = [];
  const received: unknown[] = [];
  const client = createClient({
    url: `${service.a.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { Authorization: `Bearer ${key}` },
    retryAttempts: 0,
    lazy: false,
    onNonLazyError: () => undefined,
    on: { closed: (event) => void closes.push((event as { code: number }).code) },
  });
  try {
    client.subscribe(
      { query: 'subscription { quotes(symbols: ["BTC/USD"]) { price } }' },
      { next: (v) => void received.push(v), error: () => undefined, complete: () => undefined },
    );
    await within(20_000, () => received.length > 0); // the demo feed ticks every 100 ms
    const stopped = Date.now();
    expect(await service.stop('SIGTERM')).toBe(0);
    await within(5_000, () => closes.length > 0);
    expect(closes[0]).toBe(1001);
    expect(Date.now() - stopped).toBeLessThan(8_000);
  } finally {
    await client.dispose();
    if (service.child.exitCode === null && service.child.signalCode === null) await service.stop('SIGKILL');
  }
}, 60_000);
