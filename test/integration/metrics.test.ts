/** /metrics: requests by variant, route and status, latency, quota refusals, alerts, the process. */
import { bearer, startTestService, type TestService } from '../support/service.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t?.close());

/** The value of one series in the exposition text, 0 when absent. */
async function sample(series: string): Promise<number> {
  const text = (await t.a.get('/metrics')).text;
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

it('counts and times answers by variant, route and status; unknown paths share one label', async () => {
  const { key } = await t.createKey('free');
  const ok = 'mgw_http_requests_total{variant="A",route="/api/v1/markets",status="200"}';
  const unauthorized = 'mgw_http_requests_total{variant="B",route="/api/v1/alerts",status="401"}';
  const [ok0, unauthorized0] = [await sample(ok), await sample(unauthorized)];
  for (let i = 0; i < 3; i++) await t.a.get('/api/v1/markets/').set(bearer(key));
  await t.b.get('/api/v1/alerts');
  for (let i = 0; i < 5; i++) await t.a.get(`/random-${i}`);
  expect(await sample(ok)).toBe(ok0 + 3);
  expect(await sample(unauthorized)).toBe(unauthorized0 + 1);
  expect(await sample('mgw_http_requests_total{variant="A",route="other",status="404"}')).toBeGreaterThanOrEqual(5);
  const text = (await t.a.get('/metrics')).text;
  expect(text).not.toMatch(/random-/);
  expect(await sample('mgw_http_request_duration_seconds_count{variant="A",route="/api/v1/markets"}')).toBeGreaterThanOrEqual(3);
  expect(text).toMatch(/mgw_http_request_duration_seconds_bucket\{le="0\.005",variant="A",route="\/api\/v1\/markets"\}/);
});

it('counts a docs asset under /docs, by the path asked for (Express, which serves it, rewrites the request url)', async () => {
  const docs = 'mgw_http_requests_total{variant="A",route="/docs",status="200"}';
  const before = await sample(docs);
  await t.a.get('/docs/assets/swagger-ui.css').expect(200);
  expect(await sample(docs)).toBe(before + 1);
});

it('counts quota refusals by variant and product', async () => {
  const { key } = await t.createKey('free');
  const series = 'mgw_quota_rejections_total{variant="A",product="marketData"}';
  const before = await sample(series);
  for (let i = 0; i < 12; i++) await t.a.get('/api/v1/markets?limit=1').set(bearer(key));
  expect(await sample(series)).toBe(before + 2);
});

it('counts the movement alerts written, and exposes the process figures', async () => {
  const stored = (await t.service.store.prediction.latestAlerts(1_000)).length;
  expect(stored).toBeGreaterThan(0); // the demo backfill detects some at start
  expect(await sample('mgw_alerts_total{kind="movement"}')).toBe(stored);
  expect(await sample('mgw_process_resident_memory_bytes')).toBeGreaterThan(10 * 1024 * 1024);
  const text = (await t.a.get('/metrics')).text;
  for (const series of ['mgw_nodejs_eventloop_lag_p99_seconds', 'mgw_nodejs_active_handles_total', 'mgw_heap_used_after_major_gc_bytes']) {
    expect(text).toMatch(new RegExp(`^${series} \\d`, 'm'));
  }
});

it('serves the semantic conventions’ metrics in their Prometheus rendering: requests by method, route and status; requests in flight; GraphQL operations by name and type', async () => {
  const { key } = await t.createKey('free');
  const ok =
    'http_server_request_duration_seconds_count{http_request_method="GET",http_route="/api/v1/markets",http_response_status_code="200",url_scheme="http",mgw_variant="A"}';
  const before = await sample(ok);
  for (let i = 0; i < 2; i++) await t.a.get('/api/v1/markets').set(bearer(key)).expect(200);
  expect(await sample(ok)).toBe(before + 2);
  const text = (await t.a.get('/metrics')).text;
  expect(text).toContain('# TYPE http_server_request_duration_seconds histogram');
  expect(text).toMatch(/http_server_request_duration_seconds_bucket\{le="0\.005",http_request_method="GET",http_route="\/api\/v1\/markets"/);
  // The scrape itself is in flight while it is rendered.
  expect(await sample('http_server_active_requests{http_request_method="GET",url_scheme="http"}')).toBeGreaterThanOrEqual(1);

  const operation = 'graphql_server_operation_duration_seconds_count{graphql_operation_name="Few",graphql_operation_type="query"}';
  const operations = await sample(operation);
  await t.a.post('/graphql').set(bearer(key)).send({ query: 'query Few { assetMarkets(limit: 1) { total } }' }).expect(200);
  expect(await sample(operation)).toBe(operations + 1);

  // A client's name is cut at 64 characters: no label, however long the name it sends.
  const long = `Q${'x'.repeat(20_000)}`;
  await t.a
    .post('/graphql')
    .set(bearer(key))
    .send({ query: `query ${long} { assetMarkets(limit: 1) { total } }` })
    .expect(200);
  const scraped = (await t.a.get('/metrics')).text;
  expect(scraped).toContain(`graphql_operation_name="${long.slice(0, 64)}"`);
  expect(scraped).not.toContain(long.slice(0, 65));
});
