/**
 * A request seen end to end: the service started with OTEL_EXPORTER_OTLP_ENDPOINT at a loopback
 * OTLP/HTTP receiver, a REST GET sent with a W3C `traceparent`, and the spans that arrive, in both
 * encodings the exporter speaks: one trace, the caller's; the server span its root under the
 * caller's span; the admission and the operation under it; the log line of the
 * request carries its trace id; no key anywhere. (A store query under it is not shown yet: this
 * GET reads memory only, its key included.)
 */
import { startExportingService } from '../support/exporting-service.js';
import type { OtlpReceiver, ReceivedSpan } from '../support/otlp-receiver.js';
import { bearer, type TestService } from '../support/service.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

/** The spans of `spans` under `root`, however deep. */
function under(spans: ReceivedSpan[], root: ReceivedSpan): ReceivedSpan[] {
  const found: ReceivedSpan[] = [];
  let frontier = [root.spanId];
  while (frontier.length > 0) {
    const children = spans.filter((s) => frontier.includes(s.parentSpanId));
    found.push(...children);
    frontier = children.map((s) => s.spanId);
  }
  return found;
}

describe.each([
  ['http/protobuf', 'application/x-protobuf'],
  ['http/json', 'application/json'],
])('traces over OTLP %s', (protocol, mediaType) => {
  let receiver: OtlpReceiver;
  let t: TestService;
  const lines: string[] = [];

  beforeAll(async () => {
    ({ receiver, t } = await startExportingService(
      protocol,
      { OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=test', OTEL_BSP_SCHEDULE_DELAY: '50', LOG_LEVEL: 'info' },
      { logSink: { write: (line) => void lines.push(line) } },
    ));
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('a REST GET with a traceparent is one trace: the server span under the caller, admission and operation under it, no key', async () => {
    const { key, keyId } = await t.createKey('pro');
    const res = await t.a.get('/api/v1/markets').set(bearer(key)).set('traceparent', `00-${TRACE_ID}-${CALLER_SPAN}-01`);
    expect(res.status).toBe(200);

    const spans = await receiver.until((all) => all.some((s) => s.attributes['http.route'] === '/api/v1/markets'));
    expect(receiver.contentTypes.every((type) => type.startsWith(mediaType))).toBe(true);
    const server = spans.find((s) => s.attributes['http.route'] === '/api/v1/markets')!;
    expect(server).toMatchObject({ traceId: TRACE_ID, parentSpanId: CALLER_SPAN, name: 'GET /api/v1/markets', kind: 2 });
    expect(server.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.response.status_code': 200,
      'url.path': '/api/v1/markets',
      'client.address': '127.0.0.1',
    });
    expect(server.resource).toMatchObject({ 'service.name': 'gateway-under-test', 'deployment.environment.name': 'test' });

    const request = under(spans, server);
    const names = request.map((s) => s.name);
    const admission = request.find((s) => s.name === 'admission')!;
    expect(admission.parentSpanId).toBe(server.spanId);
    expect(admission.attributes).toMatchObject({ 'mgw.admission': 'admitted', 'mgw.key.id': keyId, 'mgw.plan': 'pro', 'mgw.quota': 'allowed' });
    const operation = request.find((s) => s.attributes['graphql.operation.name'] !== undefined)!;
    expect(operation.attributes).toMatchObject({ 'graphql.operation.type': 'query', 'mgw.graphql.answer': 'executed' });
    expect(String(operation.attributes['graphql.document.id'])).toMatch(/^[0-9a-f]{64}$/);
    expect(names).toContain('rest envelope');
    // Every span of the request is of the caller's trace, and no attribute holds the key.
    expect(request.every((s) => s.traceId === TRACE_ID)).toBe(true);
    expect(JSON.stringify(spans)).not.toContain(key);
    expect(JSON.stringify(spans)).not.toContain(key.slice(4, 20));

    // The log line of the request carries its trace.
    const logged = lines.map((line) => JSON.parse(line) as { msg?: string; url?: string; trace_id?: string; span_id?: string });
    const line = logged.find((l) => l.msg === 'request' && l.url === '/api/v1/markets');
    expect(line).toMatchObject({ trace_id: TRACE_ID });

    // The same request again is answered from the kept answer: the operation says so.
    await t.a.get('/api/v1/markets').set(bearer(key)).set('traceparent', `00-${TRACE_ID}-${CALLER_SPAN}-01`);
    await receiver.until((all) => all.some((s) => s.attributes['mgw.graphql.answer'] === 'cached'));
  });
});
