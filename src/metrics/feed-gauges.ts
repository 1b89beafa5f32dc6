/** The live feeds' gauges: read from the pollers' stats at scrape time (prom-client's `collect`). */
import { Gauge, type Registry } from 'prom-client';
import type { PollerStats } from '../upstream/poller.js';

/** Registers the feeds' gauges; returns where their stats are read from (none until it is called). */
export function registerFeedGauges(registry: Registry): (stats: () => PollerStats[]) => void {
  let feeds: () => PollerStats[] = () => [];
  const perFeed = (name: string, help: string, labels: string[], fill: (g: Gauge<string>, s: PollerStats) => void) =>
    new Gauge({
      name,
      help,
      labelNames: labels,
      registers: [registry],
      collect() {
        for (const s of feeds()) fill(this, s);
      },
    });

  perFeed('mgw_upstream_polls', 'Polls of each live source since start, by outcome', ['source', 'outcome'], (g, s) => {
    g.set({ source: s.source, outcome: 'succeeded' }, s.succeeded);
    g.set({ source: s.source, outcome: 'failed' }, s.failed);
  });
  perFeed('mgw_upstream_failures', 'Failed polls of each live source since start, by kind', ['source', 'kind'], (g, s) => {
    for (const [kind, n] of Object.entries(s.failures)) g.set({ source: s.source, kind }, n);
  });
  perFeed('mgw_upstream_invalid_items', 'Upstream items dropped by validation since start', ['source'], (g, s) => g.set({ source: s.source }, s.invalidItems));
  perFeed(
    'mgw_upstream_skipped_items',
    'Upstream items left out on purpose since start (unpriced, closed, combo...), by reason',
    ['source', 'reason'],
    (g, s) => {
      for (const [reason, n] of Object.entries(s.skippedItems)) g.set({ source: s.source, reason }, n);
    },
  );
  perFeed('mgw_upstream_held_seconds', 'Seconds until a live source may be polled again because it asked us to wait (0 when not held)', ['source'], (g, s) =>
    g.set({ source: s.source }, s.notBefore === null ? 0 : Math.max(0, (s.notBefore - Date.now()) / 1000)),
  );
  perFeed('mgw_upstream_seconds_since_success', 'Seconds since the last good poll (absent before the first)', ['source'], (g, s) => {
    if (s.lastSuccessAt !== null) g.set({ source: s.source }, Math.max(0, (Date.now() - s.lastSuccessAt) / 1000));
  });
  perFeed('mgw_upstream_circuit_open', '1 while the circuit of a live source is open', ['source'], (g, s) =>
    g.set({ source: s.source }, s.circuit === 'closed' ? 0 : 1),
  );

  return (stats) => {
    feeds = stats;
  };
}
