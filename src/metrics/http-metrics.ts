/**
 * Requests by variant, route and status, and their latency, for every answer of both listeners.
 * Route labels come from a closed list (the route table's paths and the fixed endpoints), so a
 * scan of random URLs cannot grow the number of series.
 *
 * The hot path only bumps plain numbers; the exposition is built when /metrics is scraped
 * (prom-client's custom-metric interface). prom-client's own `observe` validates and hashes the
 * labels on every call, which cost about 10 µs a request here, a fifth of a cached answer.
 */
import type { Registry } from 'prom-client';

const FIXED_ROUTES = ['/graphql', '/health', '/ready', '/metrics', '/api/v1/openapi.json'];
/** Seconds: from a cached 304 to a slow dependency's bounded wait. */
const BOUNDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

export interface HttpMetrics {
  /** The label for a request path (no query string). */
  routeOf(path: string): string;
  observe(variant: string, route: string, status: number, seconds: number): void;
}

interface Timing {
  labels: { variant: string; route: string };
  /** Per bucket, not cumulative; the last one is +Inf. */
  buckets: number[];
  sum: number;
  count: number;
}

interface Answers {
  labels: { variant: string; route: string; status: string };
  count: number;
}

type Sample = { metricName?: string; labels: Record<string, string | number>; value: number };

/** A metric prom-client's registry can serve: it asks `get()` at scrape time. */
function customMetric(registry: Registry, name: string, help: string, type: 'counter' | 'histogram', values: () => Sample[]): void {
  registry.registerMetric({ name, help, get: async () => ({ name, help, type, aggregator: 'sum', values: values() }) } as never);
}

export function createHttpMetrics(registry: Registry, apiPaths: readonly string[]): HttpMetrics {
  const known = new Set([...FIXED_ROUTES, ...apiPaths.map((p) => `/api/v1${p}`)]);
  const timings = new Map<string, Timing>();
  const answers = new Map<string, Answers>();

  customMetric(registry, 'mgw_http_requests_total', 'HTTP answers by variant, route and status', 'counter', () =>
    [...answers.values()].map((a) => ({ labels: a.labels, value: a.count })),
  );
  customMetric(registry, 'mgw_http_request_duration_seconds', 'Time from the request to the last byte of its answer, by variant and route', 'histogram', () =>
    [...timings.values()].flatMap((t) => {
      let cumulative = 0;
      const buckets = t.buckets.map((n, i) => {
        cumulative += n;
        return {
          metricName: 'mgw_http_request_duration_seconds_bucket',
          labels: { le: i < BOUNDS.length ? BOUNDS[i]! : '+Inf', ...t.labels },
          value: cumulative,
        };
      });
      return [
        ...buckets,
        { metricName: 'mgw_http_request_duration_seconds_sum', labels: t.labels, value: t.sum },
        { metricName: 'mgw_http_request_duration_seconds_count', labels: t.labels, value: t.count },
      ];
    }),
  );

  return {
    routeOf(path) {
      const trimmed = path.length > 1 && path.endsWith('/') ? path.replace(/\/+$/, '') : path;
      if (known.has(trimmed)) return trimmed;
      if (trimmed === '/docs' || trimmed.startsWith('/docs/')) return '/docs';
      return 'other';
    },
    observe(variant, route, status, seconds) {
      const key = `${variant}|${route}`;
      let timing = timings.get(key);
      if (!timing) {
        timing = { labels: { variant, route }, buckets: new Array<number>(BOUNDS.length + 1).fill(0), sum: 0, count: 0 };
        timings.set(key, timing);
      }
      let bucket = 0;
      while (bucket < BOUNDS.length && seconds > BOUNDS[bucket]!) bucket++;
      timing.buckets[bucket]!++;
      timing.sum += seconds;
      timing.count++;
      const answerKey = `${key}|${status}`;
      let answer = answers.get(answerKey);
      if (!answer) {
        answer = { labels: { variant, route, status: String(status) }, count: 0 };
        answers.set(answerKey, answer);
      }
      answer.count++;
    },
  };
}
