/**
 * The poller against a loopback upstream: retries with backoff for transient failures, Retry-After
 * honoured between polls, a circuit that stops hammering, and no fault reaching the sink or throwing.
 */
import { pino } from 'pino';
import { z } from 'zod';
import type { Connector, PredictionBatch, UpstreamBatch } from '../../src/upstream/connector.js';
import { createUpstreamHttp, type UpstreamHttpOptions } from '../../src/upstream/http.js';
import { createPoller, type PollerOptions } from '../../src/upstream/poller.js';
import { parseEnvelope } from '../../src/upstream/validate.js';
import { startUpstreamServer, type UpstreamReply, type UpstreamServer } from '../support/upstream-server.js';
import { within } from '../support/wait.js';

const silent = pino({ level: 'silent' });
const GOOD = JSON.stringify([{ id: 'a', p: 0.5 }]);

/** A minimal prediction connector: GET /data, an array of {id, p}. */
const connector: Connector<PredictionBatch> = {
  source: 'testsource',
  kind: 'prediction',
  pollMs: 60_000,
  defaultBaseUrl: 'http://unused',
  async poll({ http, now }) {
    const items = parseEnvelope('testsource', z.array(z.object({ id: z.string(), p: z.number() })), await http.json('/data'), 'list');
    return {
      kind: 'prediction',
      source: 'testsource',
      observedAt: now,
      markets: items.map((i) => ({ id: `testsource:${i.id}`, source: 'testsource', question: i.id, url: 'https://x.test', topic: null })),
      observations: items.map((i) => ({ marketId: `testsource:${i.id}`, prob: i.p, volume24h: 1, observedAt: now })),
      texts: [],
      problems: { invalid: 0, examples: [] },
      skipped: {},
      complete: true,
    };
  },
};

let server: UpstreamServer;
let batches: UpstreamBatch[];
afterEach(() => server?.close());

async function poller(
  replies: UpstreamReply[] | ((n: number) => UpstreamReply),
  extra: Partial<PollerOptions> = {},
  timeoutMs = 300,
  gate: UpstreamHttpOptions['gate'] = {},
) {
  server = await startUpstreamServer([
    { path: '/data', reply: (_url, n) => (typeof replies === 'function' ? replies(n) : replies[Math.min(n, replies.length) - 1]!) },
  ]);
  batches = [];
  return createPoller({
    connector,
    http: createUpstreamHttp({ source: 'testsource', baseUrl: server.baseUrl, timeoutMs, gate }),
    sink: async (b) => void batches.push(b),
    pollMs: 60_000,
    logger: silent,
    now: () => 1_000,
    retryDelayMs: 10,
    ...extra,
  });
}

it('retries a 500 within the poll and delivers the batch', async () => {
  const p = await poller([{ status: 500, body: 'oops' }, { status: 503, body: 'busy' }, { body: GOOD }]);
  await p.pollOnce();
  expect(server.requests).toHaveLength(3);
  expect(batches).toHaveLength(1);
  expect(p.stats()).toMatchObject({ polls: 1, succeeded: 1, failed: 0, circuit: 'closed', lastSuccessAt: 1_000 });
});

it('gives up after the bounded attempts and keeps the last good data (the sink is not called)', async () => {
  const p = await poller([{ body: GOOD }, { status: 500, body: 'down' }]);
  await p.pollOnce();
  await p.pollOnce();
  expect(batches).toHaveLength(1);
  expect(server.requests).toHaveLength(1 + 3);
  expect(p.stats()).toMatchObject({ polls: 2, succeeded: 1, failed: 1, failures: { http: 1 } });
  expect(p.stats().lastError).toBe('testsource: HTTP 500');
});

it('times out a hanging upstream per request, within the bound', async () => {
  const p = await poller([{ fault: 'hang' }], { attempts: 2 }, 200);
  const started = Date.now();
  await p.pollOnce();
  expect(Date.now() - started).toBeLessThan(2_000);
  expect(p.stats().failures).toEqual({ timeout: 1 });
  expect(server.requests).toHaveLength(2);
});

it.each<[string, UpstreamReply, string]>([
  ['an HTML error page', { body: '<html><body>502 Bad Gateway</body></html>', contentType: 'text/html' }, 'parse'],
  ['truncated JSON', { fault: 'truncate', body: JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: `m${i}`, p: 0.5 }))) }, 'network'],
  ['a reset connection', { fault: 'reset' }, 'network'],
  ['a changed schema', { body: JSON.stringify({ data: [] }) }, 'schema'],
])('%s is a counted failure, never a throw', async (_name, reply, failure) => {
  const p = await poller([reply], { attempts: 1 });
  await expect(p.pollOnce()).resolves.toBeUndefined();
  expect(batches).toEqual([]);
  expect(p.stats().failures).toEqual({ [failure]: 1 });
});

it('does not retry a schema change: the next attempt would get the same answer', async () => {
  const p = await poller([{ body: '{"data": []}' }]);
  await p.pollOnce();
  expect(server.requests).toHaveLength(1);
});

it('an empty list is a good, empty batch', async () => {
  const p = await poller([{ body: '[]' }]);
  await p.pollOnce();
  expect(batches).toHaveLength(1);
  expect((batches[0] as PredictionBatch).observations).toEqual([]);
});

it('429 with Retry-After: no retry within the poll, and the next poll waits for it', async () => {
  const p = await poller((n) => (n === 1 ? { status: 429, body: '{}', headers: { 'retry-after': '1' } } : { body: GOOD }), { pollMs: 50 });
  await p.pollOnce();
  expect(server.requests).toHaveLength(1);
  expect(p.stats().failures).toEqual({ rate_limited: 1 });
  p.start();
  await new Promise((r) => setTimeout(r, 600));
  expect(server.requests).toHaveLength(1); // still waiting: 50 ms polls would have sent ~10
  // The next poll once the second has passed, and its batch: waited for as they come, not after a
  // fixed sleep (a stop right after the request could end the poll before its batch).
  await within(5_000, () => batches.length >= 1);
  await p.stop();
  expect(server.requests.length).toBeGreaterThanOrEqual(2);
});

it('opens the circuit after consecutive failures, stops calling, and closes it once the upstream recovers', async () => {
  let healthy = false;
  const p = await poller(() => (healthy ? { body: GOOD } : { status: 500, body: 'down' }), { attempts: 1 }, 300, { breakAfter: 2, halfOpenAfterMs: 300 });
  await p.pollOnce();
  await p.pollOnce();
  expect(p.stats().circuit).toBe('open');
  await p.pollOnce();
  expect(server.requests).toHaveLength(2); // the third poll never reached the upstream
  expect(p.stats().failures).toEqual({ http: 2, circuit_open: 1 });

  healthy = true;
  await new Promise((r) => setTimeout(r, 350));
  await p.pollOnce();
  expect(p.stats().circuit).toBe('closed');
  expect(batches).toHaveLength(1);
});

it('a sink that fails (the store is down) is counted and the poller carries on', async () => {
  const p = await poller([{ body: GOOD }], { sink: async () => Promise.reject(new Error('store down')) });
  await expect(p.pollOnce()).resolves.toBeUndefined();
  expect(p.stats().failures).toEqual({ ingest: 1 });
});

it('stop() does not sit out a retry backoff, and no batch reaches the sink after it', async () => {
  // The backoff has begun when the retry is logged; its wait is 1-2 s (half jitter on 2 s).
  const warnings: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
  const p = await poller((n) => (n === 1 ? { status: 500, body: 'down' } : { body: GOOD }), { retryDelayMs: 2_000, attempts: 3, logger });
  const polling = p.pollOnce();
  while (!warnings.some((w) => w.includes('retrying'))) await new Promise((r) => setTimeout(r, 5));
  const started = Date.now();
  await p.stop();
  expect(Date.now() - started).toBeLessThan(1_000); // shorter than any wait the backoff could have drawn
  await polling; // the backoff ends; the aborted poll makes no further attempt
  expect(server.requests).toHaveLength(1);
  expect(batches).toEqual([]);
});
