/** Polls a real connector once against a loopback upstream serving the given routes. */
import type { Connector, UpstreamBatch } from '../../src/upstream/connector.js';
import { createUpstreamHttp } from '../../src/upstream/http.js';
import { startUpstreamServer, type UpstreamRoute } from './upstream-server.js';

/**
 * The upstream bound when a test is not about time-outs. Whole recordings (ten years of daily bars
 * a ticker, read at once) took over 2 s on a loaded CI machine, and the poll counted a time-out.
 */
const UNHURRIED_MS = 30_000;

export async function pollConnector<B extends UpstreamBatch>(
  connector: Connector<B>,
  routes: UpstreamRoute[],
  context: { now: number; backfill?: boolean; timeoutMs?: number; sleep?: (ms: number) => Promise<void> },
): Promise<{ batch: B; requests: URL[] }> {
  const server = await startUpstreamServer(routes);
  try {
    const http = createUpstreamHttp({ source: connector.source, baseUrl: server.baseUrl, timeoutMs: context.timeoutMs ?? UNHURRIED_MS });
    const batch = await connector.poll({
      http,
      now: context.now,
      backfill: context.backfill ?? true,
      pollMs: connector.pollMs,
      sleep: context.sleep ?? (async () => undefined),
    });
    return { batch, requests: server.requests };
  } finally {
    await server.close();
  }
}
