/**
 * Requests by variant, route and status, and their latency, for every answer of both listeners.
 * Route labels come from a closed list (the route table's paths and the fixed endpoints), so a
 * scan of random URLs cannot grow the number of series.
 */
import { Counter, Histogram, type Registry } from 'prom-client';

const FIXED_ROUTES = ['/graphql', '/health', '/ready', '/metrics', '/api/v1/openapi.json'];

export interface HttpMetrics {
  /** The label for a request path (no query string). */
  routeOf(path: string): string;
  observe(variant: string, route: string, status: number, seconds: number): void;
}

export function createHttpMetrics(registry: Registry, apiPaths: readonly string[]): HttpMetrics {
  const known = new Set([...FIXED_ROUTES, ...apiPaths.map((p) => `/api/v1${p}`)]);
  const requests = new Counter({
    name: 'mgw_http_requests_total',
    help: 'HTTP answers by variant, route and status',
    labelNames: ['variant', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'mgw_http_request_duration_seconds',
    help: 'Time from the request to the last byte of its answer, by variant and route',
    labelNames: ['variant', 'route'],
    // From a cached 304 to a slow dependency's bounded wait.
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  // Children by label set, so the hot path does not hash labels on every answer.
  const counters = new Map<string, Counter.Internal>();
  const timers = new Map<string, Histogram.Internal<'variant' | 'route'>>();

  return {
    routeOf(path) {
      const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
      if (known.has(trimmed)) return trimmed;
      if (trimmed === '/docs' || trimmed.startsWith('/docs/')) return '/docs';
      return 'other';
    },
    observe(variant, route, status, seconds) {
      const c = `${variant}|${route}|${status}`;
      let counter = counters.get(c);
      if (!counter) counters.set(c, (counter = requests.labels(variant, route, String(status))));
      counter.inc();
      const h = `${variant}|${route}`;
      let timer = timers.get(h);
      if (!timer) timers.set(h, (timer = latency.labels(variant, route)));
      timer.observe(seconds);
    },
  };
}
