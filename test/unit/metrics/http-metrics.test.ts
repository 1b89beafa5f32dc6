/**
 * `http.server.active_requests` (`createInFlight`, src/metrics/http-metrics.ts): the answers in flight,
 * and those whose client left let go before the set grows without a scrape.
 */
import type { ServerResponse } from 'node:http';
import { createInFlight } from '../../../src/metrics/http-metrics.js';

const response = (destroyed = false) => ({ req: { method: 'GET' }, destroyed, writableFinished: false }) as unknown as ServerResponse & { destroyed: boolean };
const inFlight = (active: ReturnType<typeof createInFlight>) => active.points().points.reduce((n, p) => n + ('value' in p ? p.value : 0), 0);

it('counts the answers begun and not ended, by method', () => {
  const active = createInFlight();
  const [a, b] = [response(), response()];
  active.begun(a);
  active.begun(b);
  active.ended(a);
  expect(active.points().points).toEqual([{ attributes: { 'http.request.method': 'GET', 'url.scheme': 'http' }, value: 1 }]);
});

it('lets go of an answer whose client left once the set passes 1 000, unscraped', () => {
  const active = createInFlight();
  const left = response(true);
  active.begun(left);
  for (let i = 0; i < 1_000; i++) active.begun(response());
  // Were it still held, it would count again now that it looks alive: it was let go before any read.
  left.destroyed = false;
  expect(inFlight(active)).toBe(1_000);
});

it('holds on to every live answer, however many', () => {
  const active = createInFlight();
  for (let i = 0; i < 5_000; i++) active.begun(response());
  expect(inFlight(active)).toBe(5_000);
});
