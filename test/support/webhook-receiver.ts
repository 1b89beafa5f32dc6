/**
 * A webhook receiver on loopback whose answers a test scripts: each request takes the next
 * behaviour (an answer, or `hang`: never answer), the last one repeating. Requests are recorded
 * with their headers and raw body, as a receiver would verify them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Behaviour = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

export interface ReceivedRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
}

export async function startWebhookReceiver(script: Behaviour[] = [{ status: 200 }]) {
  const received: ReceivedRequest[] = [];
  let behaviours = [...script];
  const hung = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '/', headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
      const behaviour = (behaviours.length > 1 ? behaviours.shift() : behaviours[0]) ?? { status: 200 };
      if (behaviour === 'hang') {
        hung.add(res);
        return;
      }
      res.writeHead(behaviour.status, behaviour.headers);
      res.end(behaviour.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    /** Replaces the script for the requests to come. */
    answer(next: Behaviour[]) {
      behaviours = [...next];
    },
    async close(): Promise<void> {
      for (const res of hung) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
