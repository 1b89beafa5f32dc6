/** The offline demo feed of prediction markets: catalogue, seeded 48-hour backfill, live ticks. */
import type { ProbabilityObservation } from '../../../../src/domain/prediction.js';
import { DEMO_PREDICTION_MARKETS, demoPredictionMetas } from '../../../../src/ingest/demo/prediction/catalogue.js';
import { createDemoPredictionFeed, STEP_MS } from '../../../../src/ingest/demo/prediction/feed.js';
import { DEMO_LISTINGS } from '../../../../src/ingest/demo/prediction/venues.js';
import { MovementDetector } from '../../../../src/prediction/movement-detector.js';

const NOW = Date.UTC(2026, 10, 23, 5, 47, 12, 345);
const SEED = 42;
const HOUR = 3_600_000;

const feed = () => createDemoPredictionFeed({ seed: SEED, now: NOW });

function byMarket(observations: readonly ProbabilityObservation[]): Map<string, ProbabilityObservation[]> {
  const out = new Map<string, ProbabilityObservation[]>();
  for (const o of observations) out.set(o.marketId, [...(out.get(o.marketId) ?? []), o]);
  return out;
}

describe('catalogue', () => {
  const metas = demoPredictionMetas();

  it('holds at least 80 markets on several topics, with unique ids and questions', () => {
    expect(metas.length).toBeGreaterThanOrEqual(80);
    expect(new Set(metas.map((m) => m.id)).size).toBe(metas.length);
    expect(new Set(metas.map((m) => m.question)).size).toBe(metas.length);
    const topics = new Map<string, number>();
    for (const m of metas) topics.set(m.topic!, (topics.get(m.topic!) ?? 0) + 1);
    expect(topics.size).toBeGreaterThanOrEqual(6);
    expect(Math.min(...topics.values())).toBeGreaterThanOrEqual(5);
  });

  it('declares every market as source demo with a stable id and url built from its slug', () => {
    for (const [i, m] of metas.entries()) {
      const slug = DEMO_PREDICTION_MARKETS[i]!.slug;
      expect(m).toEqual({
        id: `demo:${slug}`,
        source: 'demo',
        question: DEMO_PREDICTION_MARKETS[i]!.question,
        url: `https://demo.market-gateway.local/markets/${slug}`,
        topic: DEMO_PREDICTION_MARKETS[i]!.topic,
      });
      // A question, or a game titled by its fixture ("A vs. B", YES for the first team) as venues title them.
      expect(m.question).toMatch(/^Will .+\?$|^.+ vs\. .+$/);
    }
  });

  it('has typical 24-hour volumes spanning at least four orders of magnitude and starting probabilities inside (0, 1)', () => {
    const volumes = DEMO_PREDICTION_MARKETS.map((m) => m.volume24h);
    expect(Math.max(...volumes) / Math.min(...volumes)).toBeGreaterThanOrEqual(1e4);
    for (const m of DEMO_PREDICTION_MARKETS) expect(m.prob > 0 && m.prob < 1).toBe(true);
  });
});

describe('backfill', () => {
  const observations = feed().backfill();
  const series = byMarket(observations);

  it('gives every market 48 hours of 10-minute observations ending exactly at now, in time order', () => {
    expect(series.size).toBe(DEMO_PREDICTION_MARKETS.length + DEMO_LISTINGS.length);
    const steps = (48 * HOUR) / STEP_MS;
    for (const list of series.values()) {
      expect(list).toHaveLength(steps);
      expect(list.at(-1)!.observedAt).toBe(NOW);
      expect(list[0]!.observedAt).toBe(NOW - (steps - 1) * STEP_MS);
    }
    for (let i = 1; i < observations.length; i++) {
      expect(observations[i]!.observedAt).toBeGreaterThanOrEqual(observations[i - 1]!.observedAt);
    }
  });

  it('keeps probabilities in [0.01, 0.99] with at most 4 decimals and volumes as non-negative whole numbers', () => {
    const bad = observations.filter(
      (o) => !(o.prob >= 0.01 && o.prob <= 0.99) || Math.round(o.prob * 10_000) / 10_000 !== o.prob || !Number.isInteger(o.volume24h) || o.volume24h < 0,
    );
    expect(bad).toEqual([]);
  });

  it('is the same for the same seed and differs for another', () => {
    expect(feed().backfill()).toEqual(observations);
    const other = createDemoPredictionFeed({ seed: SEED + 1, now: NOW }).backfill();
    expect(other.map((o) => o.prob)).not.toEqual(observations.map((o) => o.prob));
  });

  it('drifts and sometimes jumps: enough movements of more than 5 points for alerts right after start, calm markets mostly still', () => {
    const { movements } = new MovementDetector().observe(observations);
    expect(movements.length).toBeGreaterThanOrEqual(10);
    const moved = new Set(movements.map((m) => m.marketId));
    expect(moved.size).toBeGreaterThanOrEqual(8);
    // Some markets jump in one 10-minute step: news, not only drift.
    const jumps = [...series.values()].filter((list) => list.some((o, i) => i > 0 && Math.abs(o.prob - list[i - 1]!.prob) > 0.05));
    expect(jumps.length).toBeGreaterThanOrEqual(3);
    // And most markets drift a little without any alert.
    const drifted = [...series.values()].filter((list) => list.some((o) => o.prob !== list[0]!.prob));
    expect(drifted.length).toBe(series.size);
  });
});

describe('ticks', () => {
  it('continue from the last backfilled state, one observation per market at the tick time', () => {
    const f = feed();
    const last = new Map(
      f
        .backfill()
        .filter((o) => o.observedAt === NOW)
        .map((o) => [o.marketId, o]),
    );
    const tick = f.tick(NOW + 10_000);
    expect(tick).toHaveLength(DEMO_PREDICTION_MARKETS.length + DEMO_LISTINGS.length);
    for (const o of tick) {
      expect(o.observedAt).toBe(NOW + 10_000);
      // Ten seconds on, no market is far from where the history ended (a news jump is at most 20 points).
      expect(Math.abs(o.prob - last.get(o.marketId)!.prob)).toBeLessThanOrEqual(0.2);
    }
  });

  it('are deterministic for a seed and a sequence of times, and never run time backwards', () => {
    const a = feed();
    const b = feed();
    const times = [NOW + 5_000, NOW + 10_000, NOW + 8_000, NOW + 60_000];
    const ta = times.map((t) => a.tick(t));
    const tb = times.map((t) => b.tick(t));
    expect(ta).toEqual(tb);
    expect(ta[2]!.every((o) => o.observedAt === NOW + 10_000)).toBe(true);
  });

  it('reject a time that is not a number instead of producing NaN probabilities', () => {
    expect(() => feed().tick(Number.NaN)).toThrow(RangeError);
    expect(() => createDemoPredictionFeed({ seed: Number.NaN, now: NOW })).toThrow(RangeError);
  });
});
