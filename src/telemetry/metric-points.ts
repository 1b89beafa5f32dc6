/**
 * Metrics as plain numbers, the shape both renderings read: /metrics (prom-client, always) and
 * OTLP (otel-metrics.ts, loaded only when an endpoint asks for it). The request path bumps these
 * numbers; nothing of the OpenTelemetry SDK is needed to record them.
 */

/** Attribute values of one series, by their semantic-convention names. */
export type PointAttributes = Readonly<Record<string, string | number>>;

export interface HistogramPoint {
  attributes: PointAttributes;
  /** Per bucket, not cumulative; one more than the bounds (the last is above the highest bound). */
  counts: readonly number[];
  sum: number;
  count: number;
}

export interface ValuePoint {
  attributes: PointAttributes;
  value: number;
}

interface Described {
  /** The semantic conventions' name, e.g. `http.server.request.duration`. */
  name: string;
  /** UCUM, as the conventions give it: `s`, `{request}`. */
  unit: string;
  description: string;
  /** When the series began counting (ms since the epoch): the cumulative points' start. */
  startMs: number;
}

export type MetricPoints =
  | (Described & { kind: 'histogram'; bounds: readonly number[]; points: HistogramPoint[] })
  | (Described & { kind: 'counter' | 'updowncounter'; points: ValuePoint[] });

/** Where the current points are read, at a scrape or an export. */
export type MetricSource = () => MetricPoints[];
