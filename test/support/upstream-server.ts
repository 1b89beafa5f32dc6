/**
 * A loopback HTTP server standing in for an upstream: each request is answered by the first route
 * whose matcher accepts it, with a body (a recorded payload, usually) or a scripted fault.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type UpstreamReply =
  | { status?: number; body: string | Uint8Array; contentType?: string; headers?: Record<string, string>; delayMs?: number }
  | { fault: 'hang' }
  /** Sends the headers and half the body, then destroys the socket. */
  | { fault: 'truncate'; body: string }
  /** Destroys the socket without answering. */
  | { fault: 'reset' };

export interface UpstreamRoute {
  /** Path without query, e.g. `/api/v3/ticker/24hr`. */
  path: string;
  /** Query parameters that must match exactly (others are ignored). */
  query?: Record<string, string>;
  /** A reply, or a function of the request (called per request). */
  reply: UpstreamReply | ((request: URL, count: number) => UpstreamReply);
}

export interface UpstreamServer {
  baseUrl: string;
  /** Every request's path and query, in order. */
  requests: URL[];
  /** Every request's headers, in the same order. */
  headers: IncomingHttpHeaders[];
  /** Replaces the routes (for a second snapshot or a fault mid-test). */
  setRoutes(routes: UpstreamRoute[]): void;
  close(): Promise<void>;
}

function send(res: ServerResponse, reply: UpstreamReply): void {
  if ('fault' in reply) {
    if (reply.fault === 'hang') return;
    if (reply.fault === 'reset') {
      res.socket?.destroy();
      return;
    }
    const half = reply.body.slice(0, Math.floor(reply.body.length / 2));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(reply.body)) });
    res.write(half, () => res.socket?.destroy());
    return;
  }
  const write = () => res.writeHead(reply.status ?? 200, { 'content-type': reply.contentType ?? 'application/json', ...reply.headers }).end(reply.body);
  if (reply.delayMs) setTimeout(write, reply.delayMs).unref();
  else write();
}

export async function startUpstreamServer(initial: UpstreamRoute[]): Promise<UpstreamServer> {
  let routes = initial;
  const requests: URL[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const counts = new Map<UpstreamRoute, number>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(url);
    headers.push(req.headers);
    const route = routes.find((r) => r.path === url.pathname && Object.entries(r.query ?? {}).every(([k, v]) => url.searchParams.get(k) === v));
    if (!route) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such route in the test upstream"}');
      return;
    }
    const count = (counts.get(route) ?? 0) + 1;
    counts.set(route, count);
    send(res, typeof route.reply === 'function' ? route.reply(url, count) : route.reply);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    headers,
    setRoutes(next) {
      routes = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
