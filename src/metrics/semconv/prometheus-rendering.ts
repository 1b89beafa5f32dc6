/**
 * The conventional Prometheus rendering of OpenTelemetry metrics (the specification's
 * "Prometheus and OpenMetrics compatibility"): dots become underscores, the unit becomes a suffix
 * (`s` -> `_seconds`; an annotation such as `{request}` adds none), a counter ends in `_total`, an
 * up-down counter is a gauge. `http.server.request.duration` is `http_server_request_duration_seconds`
 * with the label `http_request_method`, as an OpenTelemetry Collector's Prometheus exporter writes it.
 */
import type { Registry } from 'prom-client';
import type { MetricPoints } from '../../telemetry/metric-points.js';

const UNIT_SUFFIXES: Record<string, string> = { s: 'seconds', ms: 'milliseconds', By: 'bytes', '1': 'ratio' };

const sanitized = (name: string) => name.replace(/[^a-zA-Z0-9_]/g, '_');

/** The Prometheus name of a metric: `http.server.request.duration` in `s` -> `http_server_request_duration_seconds`. */
export function prometheusName(points: Pick<MetricPoints, 'name' | 'unit' | 'kind'>): string {
  const suffix = UNIT_SUFFIXES[points.unit];
  const base = sanitized(points.name) + (suffix && !points.name.endsWith(`.${suffix}`) ? `_${suffix}` : '');
  return points.kind === 'counter' ? `${base}_total` : base;
}

type Labels = Record<string, string | number>;
type Sample = { metricName?: string; labels: Labels; value: number };

const labelsOf = (attributes: Readonly<Record<string, string | number>>): Labels =>
  Object.fromEntries(Object.entries(attributes).map(([name, value]) => [sanitized(name), value]));

function samplesOf(points: MetricPoints, name: string): Sample[] {
  if (points.kind !== 'histogram') return points.points.map((p) => ({ labels: labelsOf(p.attributes), value: p.value }));
  return points.points.flatMap((p) => {
    const labels = labelsOf(p.attributes);
    let cumulative = 0;
    const buckets = p.counts.map((n, i) => {
      cumulative += n;
      return { metricName: `${name}_bucket`, labels: { le: i < points.bounds.length ? points.bounds[i]! : '+Inf', ...labels }, value: cumulative };
    });
    return [...buckets, { metricName: `${name}_sum`, labels, value: p.sum }, { metricName: `${name}_count`, labels, value: p.count }];
  });
}

const TYPES = { histogram: 'histogram', counter: 'counter', updowncounter: 'gauge' } as const;

/** Serves one metric on `registry`: `read` is asked at each scrape (prom-client's custom-metric interface). */
export function registerRendering(registry: Registry, read: () => MetricPoints): void {
  const first = read();
  const name = prometheusName(first);
  const help = `${first.description} (OpenTelemetry: ${first.name})`;
  registry.registerMetric({
    name,
    help,
    get: async () => ({ name, help, type: TYPES[first.kind], aggregator: 'sum', values: samplesOf(read(), name) }),
  } as never);
}
