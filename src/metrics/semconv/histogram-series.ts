/**
 * One histogram instrument: its series by attribute values, each a few plain numbers bumped per
 * record (one map lookup, no label validation or hashing: see http-metrics.ts for what
 * prom-client's own `observe` cost). The number of series is bounded: past `maxSeries`, records go
 * to one overflow series, as the OpenTelemetry SDK's cardinality limit does, so attribute values
 * a client chooses (an operation's name) cannot grow memory without end.
 */
import type { HistogramPoint, MetricPoints, PointAttributes } from '../../telemetry/metric-points.js';

export interface HistogramSpec {
  name: string;
  unit: string;
  description: string;
  bounds: readonly number[];
  /** The attributes' names, in the order `record` is given their values. */
  attributes: readonly string[];
  maxSeries?: number;
}

/** The semantic conventions' advice for durations in seconds (http.server.request.duration). */
export const DURATION_BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10] as const;

/** The attributes of the series past the bound, as the OpenTelemetry SDK names them. */
export const OVERFLOW: PointAttributes = { 'otel.metric.overflow': 'true' };

export interface HistogramSeries {
  /** `values` in the order of the spec's attributes; undefined leaves an attribute out. */
  record(values: readonly (string | number | undefined)[], seconds: number): void;
  points(): MetricPoints;
}

export function createHistogramSeries(spec: HistogramSpec, startMs = Date.now()): HistogramSeries {
  const maxSeries = spec.maxSeries ?? 1_000;
  const series = new Map<string, HistogramPoint & { counts: number[] }>();
  const empty = (attributes: PointAttributes) => ({ attributes, counts: new Array<number>(spec.bounds.length + 1).fill(0), sum: 0, count: 0 });
  const attributesOf = (values: readonly (string | number | undefined)[]) => {
    const out: Record<string, string | number> = {};
    spec.attributes.forEach((name, i) => {
      if (values[i] !== undefined) out[name] = values[i]!;
    });
    return out;
  };

  return {
    record(values, seconds) {
      const key = values.join('\u0000');
      let point = series.get(key);
      if (!point) {
        const overflowed = series.size >= maxSeries;
        const at = overflowed ? '\u0001overflow' : key;
        point = series.get(at) ?? empty(overflowed ? OVERFLOW : attributesOf(values));
        series.set(at, point);
      }
      let bucket = 0;
      while (bucket < spec.bounds.length && seconds > spec.bounds[bucket]!) bucket++;
      point.counts[bucket]!++;
      point.sum += seconds;
      point.count++;
    },
    points: () => ({
      kind: 'histogram',
      name: spec.name,
      unit: spec.unit,
      description: spec.description,
      startMs,
      bounds: spec.bounds,
      points: [...series.values()],
    }),
  };
}
