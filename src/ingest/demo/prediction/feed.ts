/**
 * The offline demo feed of prediction markets: a seeded 48-hour history on start-up, then one step per
 * market per tick. Pure computation — the caller owns the clock and passes every time in, so a seed and
 * a sequence of times always give the same output.
 */
import type { ProbabilityObservation } from '../../../domain/prediction.js';
import type { PredictionFeed } from '../../prediction-ingest-runner.js';
import { createRandom, type Random } from '../random.js';
import { DEMO_PREDICTION_MARKETS, demoPredictionId, demoPredictionMetas } from './catalogue.js';
import { initialState, observe, step, type MarketState } from './model.js';
import { baseText, listingMetas, listingObservations, listingTexts } from './venues.js';
import { HOUR_MS } from '../../../domain/time.js';

interface DemoPredictionFeedOptions {
  seed: number;
  /** Epoch ms the backfill ends at; ticks continue from here. */
  now: number;
  /** Hours of history in the backfill (default 48). */
  historyHours?: number;
}

const DEFAULT_HISTORY_HOURS = 48;
export const STEP_MS = 10 * 60_000;

interface Live {
  state: MarketState;
  random: Random;
}

// Sorted once, so every batch comes out ordered by marketId within a time without a sort per call.
const SORTED = DEMO_PREDICTION_MARKETS.map((market) => ({ market, id: demoPredictionId(market.slug) })).sort((a, b) =>
  a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
);

/**
 * The history: `steps` observations per market, the last at `now`, 10 minutes apart. One stream per
 * market, so adding a market never changes the numbers of the others.
 */
/** The base markets' observations of one time, with the other demo venues' listings that follow them, ordered by marketId. */
function withListings(observations: ProbabilityObservation[]): ProbabilityObservation[] {
  const all = [...observations, ...listingObservations(new Map(observations.map((o) => [o.marketId, o])))];
  return all.sort((a, b) => (a.marketId < b.marketId ? -1 : a.marketId > b.marketId ? 1 : 0));
}

const TOPIC_OF = new Map(DEMO_PREDICTION_MARKETS.map((m) => [m.slug, m.topic]));

function buildBackfill(seed: number, now: number, steps: number): { observations: ProbabilityObservation[]; states: MarketState[] } {
  const streams = SORTED.map(({ market }) => createRandom(seed, `${market.slug}|history`));
  const states = SORTED.map(({ market, id }, i) => initialState(market, id, streams[i]!));
  const observations: ProbabilityObservation[] = [];
  for (let k = steps - 1; k >= 0; k--) {
    const at = now - k * STEP_MS;
    const atTime: ProbabilityObservation[] = [];
    for (const [i, state] of states.entries()) {
      // The first observation is the catalogue's starting point; every later one is a step on.
      if (k < steps - 1) step(state, STEP_MS, streams[i]!);
      atTime.push(observe(state, at));
    }
    observations.push(...withListings(atTime));
  }
  return { observations, states };
}

/**
 * markets(): every market (source 'demo', id `demo:<slug>`, url `https://demo.market-gateway.local/markets/<slug>`), and
 * the listings of the other demo venues (venues.ts), whose probabilities follow their base markets'.
 * backfill(): the last `historyHours`, ending exactly at `now`, one observation per market per 10 minutes,
 * ascending (ties by marketId), the same on every call. tick(at): one observation per market, continuing
 * from the backfill's last state (an earlier time counts as the last one).
 */
export function createDemoPredictionFeed(options: DemoPredictionFeedOptions): PredictionFeed {
  const { seed, now } = options;
  const historyHours = options.historyHours ?? DEFAULT_HISTORY_HOURS;
  if (!Number.isFinite(seed)) throw new RangeError(`demo prediction feed: seed must be a finite number, got ${seed}`);
  if (!Number.isFinite(now)) throw new RangeError(`demo prediction feed: now must be a finite time in ms, got ${now}`);
  const steps = Math.floor((historyHours * HOUR_MS) / STEP_MS);
  if (!Number.isFinite(historyHours) || steps < 1) {
    throw new RangeError(`demo prediction feed: historyHours must be a finite number >= 1/6 (one 10-minute step), got ${historyHours}`);
  }

  // The live state is built on first use and continues from the backfill's last state. The history itself
  // is not kept: backfill() regenerates it (same seed, same output), cheaper than holding it for the process's life.
  let live: { markets: Live[]; lastTime: number } | undefined;
  const start = (states: MarketState[]) => ({
    markets: states.map((state) => ({ state, random: createRandom(seed, `${state.market.slug}|tick`) })),
    lastTime: now,
  });

  return {
    markets: () => [...demoPredictionMetas(), ...listingMetas((slug) => TOPIC_OF.get(slug) ?? null)],
    texts: () => [...DEMO_PREDICTION_MARKETS.map((m) => baseText(m.slug, m.question)), ...listingTexts()],
    backfill() {
      const built = buildBackfill(seed, now, steps);
      live ??= start(built.states);
      return built.observations;
    },
    tick(at: number) {
      if (!Number.isFinite(at)) throw new RangeError(`demo prediction feed: tick time must be a finite time in ms, got ${at}`);
      live ??= start(buildBackfill(seed, now, steps).states);
      // Time never runs backwards: an earlier time is read as "no time passed".
      const t = Math.max(at, live.lastTime);
      const dt = t - live.lastTime;
      live.lastTime = t;
      return withListings(
        live.markets.map((m) => {
          step(m.state, dt, m.random);
          return observe(m.state, t);
        }),
      );
    },
  };
}
