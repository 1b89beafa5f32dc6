/**
 * A collector that is down, hung or failing is never in the way: with every span sampled and a
 * small span queue, each request answers as it does without traces; the queue stays within its
 * bound; the spans lost are counted on /metrics (`mgw_otel_spans_dropped_total`); and a SIGTERM
 * with a hung collector still ends the process within the stop's promise (10 s, docs/operations.md).
 */
import { spawnService } from '../support/child-service.js';
import { type ReceiverMode, startOtlpReceiver } from '../support/otlp-receiver.js';
import { bearer, startTestService } from '../support/service.js';
import { within } from '../support/wait.js';

const QUEUE = 64;
const tracedEnv = (url: string) => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: url,
  OTEL_TRACES_SAMPLER: 'always_on',
  OTEL_BSP_MAX_QUEUE_SIZE: String(QUEUE),
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '16',
  OTEL_BSP_SCHEDULE_DELAY: '10',
  OTEL_METRIC_EXPORT_INTERVAL: '100',
});

/** Each series of `name` in the exposition text, by its labels. */
function series(text: string, name: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n'))
    if (line.startsWith(name)) out.set(line.slice(name.length, line.lastIndexOf(' ')), Number(line.slice(line.lastIndexOf(' ') + 1)));
  return out;
}
const total = (values: Map<string, number>) => [...values.values()].reduce((a, b) => a + b, 0);

describe.each<[ReceiverMode, string]>([
  ['stopped', 'connection refused'],
  ['hung', 'accepts, never answers'],
  ['failing', 'answers 500'],
])('a collector %s (%s)', (mode) => {
  it('costs no request anything: every answer as without traces, the queue within its bound, the lost spans counted', async () => {
    const receiver = await startOtlpReceiver();
    const t = await startTestService({ env: tracedEnv(receiver.url) });
    try {
      await receiver.setMode(mode);
      const { key } = await t.createKey('enterprise'); // unmetered: 200 requests in a minute
      for (let round = 0; round < 10; round++) {
        const answers = await Promise.all(Array.from({ length: 20 }, () => t.a.get('/api/v1/markets').set(bearer(key))));
        for (const res of answers) {
          expect(res.status).toBe(200);
          expect(res.body.success).toBe(true);
        }
      }
      let text = '';
      await within(30_000, async () => {
        text = (await t.a.get('/metrics').expect(200)).text;
        const dropped = series(text, 'mgw_otel_spans_dropped_total');
        return mode === 'hung' ? (dropped.get('{error_type="queue_full"}') ?? 0) > 0 : total(dropped) > 0;
      });
      expect(total(series(text, 'mgw_otel_span_queue_size'))).toBeLessThanOrEqual(QUEUE);
      if (mode !== 'stopped') expect(receiver.requests['/v1/traces']).toBeGreaterThan(0);
      expect(receiver.spans).toEqual([]); // nothing was taken: the counts are of spans really lost
    } finally {
      await t.close();
      await receiver.close();
    }
  });
});

it('SIGTERM with a hung collector: the process flushes what it can and exits 0 within the stop’s 10 s', async () => {
  const receiver = await startOtlpReceiver();
  await receiver.setMode('hung');
  const service = await spawnService({ ...tracedEnv(receiver.url), OTEL_BSP_SCHEDULE_DELAY: '1000' });
  try {
    // Spans queued (the schedule's delay holds them), and an export hung at the collector.
    for (let i = 0; i < 5; i++) expect((await fetch(`${service.a}/health`)).status).toBe(200);
    await within(15_000, () => (receiver.requests['/v1/metrics'] ?? 0) > 0);
    const signalled = Date.now();
    expect(await service.stop('SIGTERM')).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    expect(service.output()).toContain('market-gateway stopped');
  } finally {
    await service.kill();
    await receiver.close();
  }
});
