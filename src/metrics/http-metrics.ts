/**
 * What the listeners record of each request, under two sets of names: the service's own
 * (`mgw_http_requests_total` and `mgw_http_request_duration_seconds`, by variant, route and status)
 * and the semantic conventions' (`http.server.request.duration`, `http.server.active_requests`:
 * rendered on /metrics by prometheus-rendering.ts, and sent over OTLP when an endpoint is set).
 * Route labels come from a closed list (the route tables' paths and the fixed endpoints), so a scan
 * of random URLs cannot grow the number of series.
 *
 * The hot path only bumps plain numbers, in one series per variant, route, method and status that
 * every name is read from; the exposition is built when /metrics is scraped (prom-client's
 * custom-metric interface). prom-client's own `observe` validates and hashes the labels on every
 * call, which cost about 10 µs a request here, a fifth of a cached answer.
 */
import type { ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import type { HistogramPoint, MetricPoints } from '../telemetry/metric-points.js';
import { DURATION_BOUNDS, OVERFLOW } from './semconv/histogram-series.js';
import { registerRendering } from './semconv/prometheus-rendering.js';

const FIXED_ROUTES = ['/graphql', '/health', '/ready', '/metrics', '/api/v1/openapi.json'];
/** Seconds: from a cached 304 to a slow dependency's bounded wait. */
const BOUNDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
/** Series of the conventions' duration, as the OpenTelemetry SDK bounds them; past it, one overflow series. */
const MAX_CONVENTIONAL_SERIES = 1_000;
/** Below this many answers in flight, none is let go early (see `begun`). */
const PRUNE_FLOOR = 1_000;

/** `http.request.method` as the conventions bound it: the known methods, every other one `_OTHER`. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH', 'QUERY']);
const methodOf = (method: string | undefined): string => (method && KNOWN_METHODS.has(method) ? method : '_OTHER');

export interface HttpMetrics {
  /** The label for a request path (no query string). */
  routeOf(path: string): string;
  /** A request begun: in flight until its answer is finished. */
  begun(res: ServerResponse): void;
  /** Its answer, finished: counted and timed under both names. */
  answered(res: ServerResponse, variant: string, route: string, seconds: number): void;
  /** The conventions' two instruments, as the OTLP export reads them. */
  points(): MetricPoints[];
}

/** One variant, route, method and status: what each name counts of it. */
interface Series {
  variant: string;
  route: string;
  status: number;
  /** The service's histogram: per bucket of BOUNDS, not cumulative; the last one is +Inf. */
  buckets: number[];
  sum: number;
  count: number;
  /** The conventions' point (DURATION_BOUNDS), its own, or the overflow's shared by the series past the bound. */
  point: HistogramPoint & { counts: number[] };
}

type Sample = { metricName?: string; labels: Record<string, string | number>; value: number };

/** A metric prom-client's registry can serve: it asks `get()` at scrape time. */
function customMetric(registry: Registry, name: string, help: string, type: 'counter' | 'histogram', values: () => Sample[]): void {
  registry.registerMetric({ name, help, get: async () => ({ name, help, type, aggregator: 'sum', values: values() }) } as never);
}

const bucketOf = (bounds: readonly number[], seconds: number): number => {
  let bucket = 0;
  while (bucket < bounds.length && seconds > bounds[bucket]!) bucket++;
  return bucket;
};

const emptyPoint = (attributes: HistogramPoint['attributes']) => ({
  attributes,
  counts: new Array<number>(DURATION_BOUNDS.length + 1).fill(0),
  sum: 0,
  count: 0,
});

/** `key` -> the entry `make` makes the first time, for the projections read at a scrape. */
function entryOf<T>(map: Map<string, T>, key: string, make: () => T): T {
  let entry = map.get(key);
  if (!entry) {
    entry = make();
    map.set(key, entry);
  }
  return entry;
}

export function createHttpMetrics(registry: Registry, apiPaths: readonly string[], startMs = Date.now()): HttpMetrics {
  const known = new Set([...FIXED_ROUTES, ...apiPaths.map((p) => `/api/v1${p}`)]);
  const series = new Map<string, Series>();
  let overflow: Series['point'] | undefined;
  const inFlight = createInFlight(startMs);

  function seriesOf(variant: string, route: string, method: string, status: number): Series {
    return entryOf(series, `${variant}|${route}|${method}|${status}`, () => {
      const attributes = {
        'http.request.method': method,
        'http.route': route,
        'http.response.status_code': status,
        'url.scheme': 'http',
        'mgw.variant': variant,
      };
      // Past the bound, the conventions' duration of a new series goes to the one overflow point; the service's names keep it apart.
      if (series.size >= MAX_CONVENTIONAL_SERIES) overflow ??= emptyPoint(OVERFLOW);
      const point = series.size < MAX_CONVENTIONAL_SERIES ? emptyPoint(attributes) : overflow!;
      return { variant, route, status, buckets: new Array<number>(BOUNDS.length + 1).fill(0), sum: 0, count: 0, point };
    });
  }

  const durationPoints = (): MetricPoints => ({
    kind: 'histogram',
    name: 'http.server.request.duration',
    unit: 's',
    description: 'Duration of HTTP server requests, to the last byte of the answer',
    startMs,
    bounds: DURATION_BOUNDS,
    points: [...new Set([...series.values()].map((s) => s.point))],
  });
  const activePoints = inFlight.points;

  customMetric(registry, 'mgw_http_requests_total', 'HTTP answers by variant, route and status', 'counter', () => {
    const answers = new Map<string, Sample>();
    for (const s of series.values()) {
      const labels = { variant: s.variant, route: s.route, status: String(s.status) };
      entryOf(answers, `${s.variant}|${s.route}|${s.status}`, () => ({ labels, value: 0 })).value += s.count;
    }
    return [...answers.values()];
  });
  customMetric(registry, 'mgw_http_request_duration_seconds', 'Time from the request to the last byte of its answer, by variant and route', 'histogram', () =>
    serviceHistogram(series.values()),
  );
  registerRendering(registry, durationPoints);
  registerRendering(registry, activePoints);

  return {
    routeOf(path) {
      const trimmed = path.length > 1 && path.endsWith('/') ? path.replace(/\/+$/, '') : path;
      if (known.has(trimmed)) return trimmed;
      if (trimmed === '/docs' || trimmed.startsWith('/docs/')) return '/docs';
      return 'other';
    },
    begun: inFlight.begun,
    answered(res, variant, route, seconds) {
      inFlight.ended(res);
      const s = seriesOf(variant, route, methodOf(res.req.method), res.statusCode);
      s.buckets[bucketOf(BOUNDS, seconds)]!++;
      s.sum += seconds;
      s.count++;
      s.point.counts[bucketOf(DURATION_BOUNDS, seconds)]!++;
      s.point.sum += seconds;
      s.point.count++;
    },
    points: () => [durationPoints(), activePoints()],
  };
}

/** `mgw_http_request_duration_seconds`' samples: the series summed by variant and route, cumulative buckets. */
function serviceHistogram(all: Iterable<Series>): Sample[] {
  const timings = new Map<string, { labels: { variant: string; route: string }; buckets: number[]; sum: number; count: number }>();
  for (const s of all) {
    const labels = { variant: s.variant, route: s.route };
    const t = entryOf(timings, `${s.variant}|${s.route}`, () => ({ labels, buckets: new Array<number>(BOUNDS.length + 1).fill(0), sum: 0, count: 0 }));
    s.buckets.forEach((n, i) => {
      t.buckets[i]! += n;
    });
    t.sum += s.sum;
    t.count += s.count;
  }
  return [...timings.values()].flatMap((t) => {
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
  });
}

/**
 * `http.server.active_requests`: the requests begun and not yet answered. A request whose client
 * left before its answer was finished never reaches the finish hook (`whenFinished`,
 * http-server.ts), and a listener per response is what that hook avoids; so the answers in flight
 * are kept in a set and those whose connection is gone are let go when the figure is read, and when
 * the set has doubled since the last such pass (an instance that is never scraped): the dead held
 * are at most about as many as the live, each pass paid for by the requests that doubled it.
 */
export function createInFlight(startMs = Date.now()) {
  const inFlight = new Set<ServerResponse>();
  const seen = new Map<string, number>();
  let pruneAbove = PRUNE_FLOOR;
  const prune = () => {
    for (const res of inFlight) if (res.destroyed && !res.writableFinished) inFlight.delete(res);
    pruneAbove = Math.max(PRUNE_FLOOR, 2 * inFlight.size);
  };
  return {
    begun(res: ServerResponse): void {
      inFlight.add(res);
      const method = methodOf(res.req.method);
      if (!seen.has(method)) seen.set(method, 0);
      if (inFlight.size > pruneAbove) prune();
    },
    ended: (res: ServerResponse): void => void inFlight.delete(res),
    points(): MetricPoints {
      prune();
      // Every method seen stays a series (at 0 when idle): a gauge that vanishes reads as no data.
      for (const method of seen.keys()) seen.set(method, 0);
      for (const res of inFlight) {
        const method = methodOf(res.req.method);
        seen.set(method, (seen.get(method) ?? 0) + 1);
      }
      return {
        kind: 'updowncounter',
        name: 'http.server.active_requests',
        unit: '{request}',
        description: 'HTTP requests being answered',
        startMs,
        points: [...seen].map(([method, value]) => ({ attributes: { 'http.request.method': method, 'url.scheme': 'http' }, value })),
      };
    },
  };
}
