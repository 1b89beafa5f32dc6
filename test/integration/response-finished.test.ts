/**
 * What runs once an answer is written (its metrics, its log line) is called through node's
 * `http.server.response.finish` channel, not a 'finish' listener of our own on every response:
 * that second listener was what kept the service's garbage alive through scavenges
 * (`whenFinished`, src/http/http-server.ts). Checked on the service's own listeners, with real requests.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpServer, whenFinished } from '../../src/http/http-server.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

it('runs the function once per response, after the whole answer is written, with the response as this', async () => {
  const calls: { self: unknown; res: ServerResponse; written: boolean }[] = [];
  const server = createServer((req, res) => {
    whenFinished(res, function (this: ServerResponse) {
      calls.push({ self: this, res, written: this.writableFinished });
    });
    res.end(req.url === '/big' ? 'x'.repeat(1 << 20) : 'small');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // Keep-alive: several answers on one connection, one of them larger than a socket write. Each
    // body is read: one left unread holds its connection open past the server's close.
    for (const path of ['/a', '/big', '/b']) {
      const answer = await fetch(base + path);
      expect(answer.status).toBe(200);
      await answer.arrayBuffer();
    }
    expect(calls).toHaveLength(3);
    for (const call of calls) {
      expect(call.self).toBe(call.res);
      expect(call.written).toBe(true);
    }
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

it("the service's answers carry node's own 'finish' listener only, and are still counted", async () => {
  const { key } = await t.createKey('pro', 'pro');
  const listeners: number[] = [];
  // The service's app behind the service's own server, looking at each response once the app has had it.
  const server = createHttpServer((req, res) => {
    t.service.marketDataApp(req, res);
    listeners.push(res.listenerCount('finish'));
  }, 'A').listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const count = async () => {
      const text = await (await fetch(`${base}/metrics`)).text();
      return Number(/^mgw_http_requests_total\{variant="A",route="\/health",status="200"\} (\d+)$/m.exec(text)?.[1] ?? 0);
    };
    const before = await count();
    const status = async (path: string, init?: RequestInit) => {
      const answer = await fetch(base + path, init);
      await answer.arrayBuffer();
      return answer.status;
    };
    for (let i = 0; i < 3; i++) expect(await status('/health')).toBe(200);
    expect(await status('/api/v1/markets?limit=1', { headers: bearer(key) })).toBe(200);
    expect(await status('/api/v1/markets')).toBe(401);
    expect(await count()).toBe(before + 3);
    expect(listeners.length).toBeGreaterThanOrEqual(6);
    expect(new Set(listeners)).toEqual(new Set([1]));
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});
