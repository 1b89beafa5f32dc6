/**
 * `http.server.active_requests`: the requests begun and not yet answered. A request whose client
 * left before its answer was finished never reaches the finish hook (`whenFinished`, http-server.ts), and a
 * listener per response is what that module avoids; so the answers in flight are kept in a set
 * and those whose connection is gone are let go when the figure is read, and when the set has
 * doubled since the last such pass (an instance that is never scraped): the dead held are at most
 * about as many as the live, each pass paid for by the requests that doubled it.
 */
import type { ServerResponse } from 'node:http';
import type { MetricPoints } from '../../telemetry/metric-points.js';
import { methodOf } from './http-method.js';

/** Below this many answers in flight, none is let go early. */
const PRUNE_FLOOR = 1_000;

export interface ActiveRequests {
  begun(res: ServerResponse): void;
  ended(res: ServerResponse): void;
  points(): MetricPoints;
}

export function createActiveRequests(startMs = Date.now()): ActiveRequests {
  const inFlight = new Set<ServerResponse>();
  const seen = new Map<string, number>();
  let pruneAbove = PRUNE_FLOOR;
  const prune = () => {
    for (const res of inFlight) if (res.destroyed && !res.writableFinished) inFlight.delete(res);
    pruneAbove = Math.max(PRUNE_FLOOR, 2 * inFlight.size);
  };
  return {
    begun(res) {
      inFlight.add(res);
      const method = methodOf(res.req.method);
      if (!seen.has(method)) seen.set(method, 0);
      if (inFlight.size > pruneAbove) prune();
    },
    ended: (res) => void inFlight.delete(res),
    points() {
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
