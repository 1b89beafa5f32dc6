/**
 * The semantic conventions' metrics over OTLP/HTTP: the service started with
 * OTEL_EXPORTER_OTLP_ENDPOINT at a loopback receiver and a short OTEL_METRIC_EXPORT_INTERVAL, in
 * both encodings; a REST GET and a /graphql operation arrive as cumulative histogram points with
 * their attributes, and the requests in flight as an up-down counter.
 */
import { startExportingService } from '../support/exporting-service.js';
import type { OtlpReceiver, ReceivedPoint } from '../support/otlp-receiver.js';
import { bearer, type TestService } from '../support/service.js';

const route = (p: ReceivedPoint) => p.metric === 'http.server.request.duration' && p.attributes['http.route'] === '/api/v1/markets';

describe.each([
  ['http/protobuf', 'application/x-protobuf'],
  ['http/json', 'application/json'],
])('metrics over OTLP %s', (protocol, mediaType) => {
  let receiver: OtlpReceiver;
  let t: TestService;

  beforeAll(async () => {
    ({ receiver, t } = await startExportingService(protocol, { OTEL_TRACES_EXPORTER: 'none', OTEL_METRIC_EXPORT_INTERVAL: '100' }));
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('sends http.server.request.duration by method, route and status, GraphQL operations by name and type, and the requests in flight', async () => {
    const { key } = await t.createKey('free');
    await t.a.get('/api/v1/markets').set(bearer(key)).expect(200);
    await t.a.get('/api/v1/markets').set(bearer(key)).expect(200);
    await t.a.post('/graphql').set(bearer(key)).send({ query: 'query Few { assetMarkets(limit: 1) { total } }' }).expect(200);

    const points = await receiver.untilPoints(
      (all) => all.some((p) => route(p) && p.value >= 2) && all.some((p) => p.attributes['graphql.operation.name'] === 'Few'),
    );
    expect(receiver.contentTypes.every((type) => type.startsWith(mediaType))).toBe(true);
    expect(receiver.requests['/v1/traces']).toBeUndefined(); // OTEL_TRACES_EXPORTER=none: metrics alone
    const served = points.filter(route).at(-1)!;
    expect(served).toMatchObject({
      unit: 's',
      kind: 'histogram',
      attributes: { 'http.request.method': 'GET', 'http.response.status_code': 200, 'url.scheme': 'http', 'mgw.variant': 'A' },
    });
    expect(served.sum).toBeGreaterThan(0);
    const operation = points.filter((p) => p.attributes['graphql.operation.name'] === 'Few').at(-1)!;
    expect(operation).toMatchObject({
      metric: 'graphql.server.operation.duration',
      kind: 'histogram',
      value: 1,
      attributes: { 'graphql.operation.type': 'query' },
    });
    expect(points.find((p) => p.metric === 'http.server.active_requests')).toMatchObject({ unit: '{request}', kind: 'sum' });
  });
});
