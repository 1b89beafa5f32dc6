/**
 * The HTTP edge of both listeners: limits answered in the variant's JSON envelope (also the ones
 * node answers before any handler runs), timeouts ordered for a load balancer, security headers,
 * and never an HTML page or a stack trace for an error, whatever NODE_ENV says.
 */
import http from 'node:http';
import net from 'node:net';
import { createHttpServer, HTTP_LIMITS, malformedHead } from '../../src/http/http-server.js';
import { bearer, startTestService, type TestService } from '../support/service.js';
import { within } from '../support/wait.js';
import { rawExchange } from '../support/raw-http.js';

let t: TestService;
const savedNodeEnv = process.env.NODE_ENV;
beforeAll(async () => {
  delete process.env.NODE_ENV; // the least forgiving case: nothing says production or test
  t = await startTestService();
});
afterAll(async () => {
  // The worker runs other files after this one: put back what was there, absent included.
  if (savedNodeEnv === undefined) delete process.env.NODE_ENV;
  else process.env.NODE_ENV = savedNodeEnv;
  await t?.close();
});

const portOf = (agent: TestService['a']) => Number(new URL((agent as unknown as { app: string }).app).port);

describe('limits, in the envelope', () => {
  it('headers over 16 KB: 431 with a JSON body, on each variant', async () => {
    for (const [agent, flag] of [
      [t.a, 'success'],
      [t.b, 'ok'],
    ] as const) {
      const res = await rawExchange(portOf(agent), `GET /api/v1/markets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      expect(res.status).toBe(431);
      expect(res.headers).toMatch(/content-type: application\/json/i);
      expect(JSON.parse(res.body)).toEqual({ [flag]: false, error: { code: 431, type: 'headers_too_large', message: expect.any(String) } });
    }
  });

  it('an answer node asks for before any handler looks like every other one to a real client: the standard reason phrase, a request id, the security headers', async () => {
    const answer = await new Promise<http.IncomingMessage & { text: string }>((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port: portOf(t.a), path: '/api/v1/markets', headers: { 'X-Big': 'a'.repeat(20_000) } }, (res) => {
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (chunk) => (text += chunk))
          .on('end', () => resolve(Object.assign(res, { text })));
      });
      req.on('error', reject);
    });
    expect(answer.statusCode).toBe(431);
    expect(answer.statusMessage).toBe('Request Header Fields Too Large');
    expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    });
    expect(JSON.parse(answer.text).error.code).toBe(431);
  });

  it("the dashboard's files are served under their former names too (a page of an older instance during a rolling deploy)", async () => {
    for (const [former, name] of [
      ['portal.css', 'dashboard.css'],
      ['portal.js', 'dashboard.js'],
    ]) {
      const now = await t.a.get(`/account/assets/${name}`);
      const before = await t.a.get(`/account/assets/${former}`);
      expect([now.status, before.status]).toEqual([200, 200]);
      expect(before.headers['content-type']).toBe(now.headers['content-type']);
      expect(before.text).toBe(now.text);
    }
  });

  it('a HEAD refused on the socket has the headers of its GET, Content-Length included, and no body', async () => {
    const get = await rawExchange(portOf(t.a), 'GET /health HTTP/1.1\r\n\r\n');
    const head = await rawExchange(portOf(t.a), 'HEAD /health HTTP/1.1\r\n\r\n');
    expect(head.status).toBe(400);
    expect(head.headers).toMatch(new RegExp(`\r\nContent-Length: ${Buffer.byteLength(get.body)}\r\n`));
    expect(head.body).toBe('');
  });

  it.each([
    ['without Host (HTTP/1.1 requires it)', 'GET /api/v1/markets HTTP/1.1\r\n\r\n', /Host header is required/],
    ['with a malformed request line', 'GET /api/v1/markets HTTP/9.9 extra\r\nHost: x\r\n\r\n', /malformed HTTP request/],
    [
      'with broken chunked encoding',
      'POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n',
      /malformed HTTP request/,
    ],
  ])('a request %s: 400 in the envelope, with the headers of every answer', async (_name, bytes, message) => {
    for (const [agent, flag] of [
      [t.a, 'success'],
      [t.b, 'ok'],
    ] as const) {
      const res = await rawExchange(portOf(agent), bytes);
      expect(res.status).toBe(400);
      expect(res.headers).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}\r\n/);
      expect(res.headers).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/);
      expect(JSON.parse(res.body)).toEqual({ [flag]: false, error: { code: 400, type: 'bad_request', message: expect.stringMatching(message) } });
    }
  });

  /** A GET whose headers are `lines` lines (Host and Connection among them), well within 16 KB. */
  const withHeaderLines = (lines: number) =>
    `GET /api/v1/markets HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${Array.from({ length: lines - 2 }, (_, i) => `X-${i}: y`).join('\r\n')}\r\n\r\n`;

  it(`${HTTP_LIMITS.maxHeaderLines} header lines are served like any request`, async () => {
    const res = await rawExchange(portOf(t.a), withHeaderLines(HTTP_LIMITS.maxHeaderLines));
    expect(res.status).toBe(401); // no key: the edge answers, in the envelope
    expect(JSON.parse(res.body).error.code).toBe(401);
  });

  it('more header lines than that: 431 in the envelope, with its reason phrase, on each variant', async () => {
    for (const [agent, flag] of [
      [t.a, 'success'],
      [t.b, 'ok'],
    ] as const) {
      const res = await rawExchange(portOf(agent), withHeaderLines(1_300));
      expect(res.headers).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
      expect(JSON.parse(res.body)).toEqual({
        [flag]: false,
        error: { code: 431, type: 'headers_too_large', message: expect.stringMatching(/at most 16 KB in 1000 lines/) },
      });
    }
  });

  it('the listener counts header lines itself (for requests and upgrades), whatever the Node: node 22.15 to 22.22 do not', () => {
    const head = (lines: number) => ({
      headers: { host: 'x' },
      rawHeaders: Array.from({ length: lines }, (_, i) => [`X-${i}`, 'y']).flat(),
      httpVersionMajor: 1,
      httpVersionMinor: 1,
    });
    expect(malformedHead(head(HTTP_LIMITS.maxHeaderLines))).toBeUndefined();
    expect(malformedHead(head(HTTP_LIMITS.maxHeaderLines + 1))).toMatchObject({ status: 431, message: expect.stringMatching(/1000 lines/) });
    expect(malformedHead({ ...head(1), headers: {} })).toMatchObject({ status: 400, message: expect.stringMatching(/Host/) });
  });

  it('a request that is not HTTP: 400 with a JSON body', async () => {
    const res = await rawExchange(portOf(t.b), 'HELLO THERE\r\n\r\n');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).ok).toBe(false);
  });

  it('a URL over 8 KB: 414', async () => {
    const { key } = await t.createKey('enterprise');
    const res = await t.a.get(`/api/v1/markets?type=${'x'.repeat(HTTP_LIMITS.maxUrlLength)}`).set(bearer(key));
    expect(res.status).toBe(414);
    expect(res.body).toEqual({ success: false, error: { code: 414, type: 'uri_too_long', message: expect.stringMatching(/URL too long/) } });
  });

  it("timeouts outlive a load balancer's 60 s idle timeout, in the right order", async () => {
    const server = createHttpServer(() => undefined, 'A');
    expect(server.keepAliveTimeout).toBeGreaterThan(60_000);
    expect(server.headersTimeout).toBeGreaterThan(server.keepAliveTimeout);
    expect(server.requestTimeout).toBeGreaterThan(server.headersTimeout);
  });
});

describe('never HTML, never a stack trace', () => {
  const cases: [string, () => Promise<import('supertest').Response>][] = [
    ['an unknown path', () => t.a.get('/nope')],
    ['an unknown API path', () => t.b.get('/api/v1/nope')],
    ['a method the API does not take', () => t.a.delete('/api/v1/markets')],
    ['malformed JSON to /graphql', () => t.a.post('/graphql').set('Content-Type', 'application/json').send('{"query":')],
    ['a JSON array to /graphql', () => t.a.post('/graphql').set('Content-Type', 'application/json').send('[]')],
    ['a text body to /graphql', () => t.a.post('/graphql').set('Content-Type', 'text/plain').send('{ viewer { name } }')],
    ['a percent-encoding that does not decode', () => t.b.get('/api/v1/markets?limit=%E0%A4%A')],
  ];
  it.each(cases)('%s', async (_name, send) => {
    const res = await send();
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.text).not.toMatch(/<html|\bat \w+ \(|\/work\/|node_modules|\.ts:\d+/i);
    expect(() => JSON.parse(res.text)).not.toThrow();
  });
});

describe('security headers', () => {
  it('on API answers, errors included', async () => {
    const { key } = await t.createKey('enterprise');
    for (const res of [
      await t.a.get('/api/v1/markets').set(bearer(key)),
      await t.b.get('/api/v1/markets'),
      await t.a.post('/graphql').send({ query: '{ viewer { name } }' }),
    ]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-request-id']).toMatch(/^[\w.-]+$/);
    }
  });

  it('the docs page may load its own scripts', async () => {
    const res = await t.a.get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect(res.headers['x-frame-options']).toBe('DENY');
  });
});

describe('connections that cannot starve others', () => {
  it("connections over the listener's cap are answered 503 in the envelope, with the stamp, and closed; once one goes, the next is served", async () => {
    const server = createHttpServer((_req, res) => res.end('{"ok":true}'), 'A', { maxConnections: 3, maxConnectionsPerAddress: 0 });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    const held: net.Socket[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        held.push(
          await new Promise<net.Socket>((resolve, reject) => {
            const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
            socket.on('error', reject);
          }),
        );
      }
      const fourth = await rawExchange(port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(fourth.status).toBe(503);
      expect(fourth.headerMap).toMatchObject({ 'retry-after': '1', 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' });
      expect(fourth.headerMap['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.parse(fourth.body)).toEqual({
        success: false,
        error: { code: 503, type: 'service_unavailable', message: expect.stringMatching(/too many open connections on this listener \(at most 3\)/) },
      });
      held.pop()!.destroy();
      await within(5_000, async () => (await rawExchange(port, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).status === 200);
    } finally {
      for (const socket of held) socket.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('one address holding more idle connections than its cap is turned away in the envelope; another client is still served', async () => {
    let handled = 0;
    const server = createHttpServer(
      (_req, res) => {
        handled++;
        res.end('{"ok":true}');
      },
      'B',
      { maxConnections: 100, maxConnectionsPerAddress: 5 },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    const held: net.Socket[] = [];
    try {
      const connect = (localAddress: string) =>
        new Promise<net.Socket>((resolve, reject) => {
          const socket = net.connect({ port, host: '127.0.0.1', localAddress }, () => resolve(socket));
          socket.on('error', reject);
          held.push(socket);
        });
      // Five idle connections from 127.0.0.1: all kept open.
      for (let i = 0; i < 5; i++) await connect('127.0.0.1');
      // The sixth from that address: a 429 in the envelope, then closed.
      const sixth = await new Promise<string>((resolve) => {
        const socket = net.connect({ port, host: '127.0.0.1', localAddress: '127.0.0.1' });
        held.push(socket);
        let data = '';
        socket.setEncoding('utf8').on('data', (chunk) => (data += chunk));
        socket.on('close', () => resolve(data));
      });
      expect(sixth).toMatch(/^HTTP\/1\.1 429 Too Many Requests\r\n/);
      expect(sixth).toMatch(/\r\nRetry-After: 1\r\n/);
      expect(JSON.parse(sixth.split('\r\n\r\n')[1]!)).toEqual({
        ok: false,
        error: { code: 429, type: 'rate_limit_exceeded', message: expect.stringMatching(/too many open connections/) },
      });
      // A client over the cap that sends its request anyway gets the 429; no handler runs for it (nothing is metered).
      const over = await new Promise<number>((resolve, reject) => {
        http.get({ host: '127.0.0.1', port, path: '/', localAddress: '127.0.0.1', agent: false }, (res) => resolve(res.statusCode ?? 0)).on('error', reject);
      });
      expect(over).toBe(429);
      expect(handled).toBe(0);
      // Another client (another loopback address) is served at once.
      const other = await new Promise<number>((resolve, reject) => {
        http.get({ host: '127.0.0.1', port, path: '/', localAddress: '127.0.0.2', agent: false }, (res) => resolve(res.statusCode ?? 0)).on('error', reject);
      });
      expect(other).toBe(200);
      // Once the first address lets go of one, it may connect again.
      held[0]!.destroy();
      await within(5_000, async () => {
        const status = await new Promise<number>((resolve) => {
          http
            .get({ host: '127.0.0.1', port, path: '/', localAddress: '127.0.0.1', agent: false }, (res) => resolve(res.statusCode ?? 0))
            .on('error', () => resolve(0));
        });
        return status === 200;
      });
    } finally {
      for (const socket of held) socket.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('draining a listener', () => {
  it('a request in flight is answered with Connection: close, an idle keep-alive connection goes at once, and the drain ends with them, not at its grace', async () => {
    let release!: () => void;
    const released = new Promise<void>((r) => {
      release = r;
    });
    let slowArrived = false;
    const server = createHttpServer((req, res) => {
      if (req.url !== '/slow') return void res.end('quick');
      slowArrived = true;
      void released.then(() => res.end('slow'));
    }, 'A').listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const port = (server.address() as net.AddressInfo).port;
    const agent = new http.Agent({ keepAlive: true });
    const get = (path: string) =>
      new Promise<http.IncomingMessage & { text: string }>((resolve, reject) => {
        http
          .get({ port, host: '127.0.0.1', path, agent }, (res) => {
            let text = '';
            res.on('data', (chunk) => (text += chunk));
            res.on('end', () => resolve(Object.assign(res, { text })));
          })
          .on('error', reject);
      });
    try {
      // Two connections: one idle after its answer (kept alive), one with a request in flight.
      const [idle] = await Promise.all([get('/quick'), get('/quick')]);
      expect(idle.headers.connection).toBe('keep-alive');
      const slow = get('/slow');
      await within(5_000, async () => slowArrived);
      const started = Date.now();
      const drained = server.drain(20_000);
      release();
      const answer = await slow;
      expect(answer.text).toBe('slow');
      expect(answer.headers.connection).toBe('close');
      await drained;
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      release();
      agent.destroy();
      server.closeAllConnections();
    }
  });
});
