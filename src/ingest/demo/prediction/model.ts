/** The maths of one demo prediction market: a logit random walk with news jumps, and a 24-hour volume around its norm. */
import type { ProbabilityObservation } from '../../../domain/prediction.js';
import { roundProb } from '../../../prediction/percent.js';
import type { Random } from '../random.js';
import type { DemoPredictionMarket, VolatilityClass } from './catalogue.js';
import { DAY_MS, HOUR_MS } from '../../../domain/time.js';

// Aliased once: inside Node vm contexts (Jest) every lookup of the global `Math` is slow, and this is hot code.
const { exp, log, max, min, round, sqrt } = Math;

interface ClassParams {
  /** Standard deviation of the logit over one day (sqrt-time scaling). At p = 0.5, 0.1 is about 2.5 points. */
  sigmaPerDay: number;
  /** Expected news jumps per day. */
  jumpsPerDay: number;
}

// Over two days at p = 0.5, calm markets drift about 2 points and see news once a month; normal ones
// about 3.5 points and news every third day; jumpy ones twice that and news almost daily. Together that
// gives movement alerts right after start without calm markets raising them.
const CLASS_PARAMS: Record<VolatilityClass, ClassParams> = {
  calm: { sigmaPerDay: 0.05, jumpsPerDay: 1 / 30 },
  normal: { sigmaPerDay: 0.1, jumpsPerDay: 1 / 3 },
  jumpy: { sigmaPerDay: 0.22, jumpsPerDay: 0.8 },
};

const PROB_MIN = 0.01;
const PROB_MAX = 0.99;
const JUMP_MIN = 0.06;
const JUMP_MAX = 0.2;
/** Volume noise: log-deviation from the norm reverts with this time constant, around this spread. */
const VOLUME_REVERT_MS = 6 * HOUR_MS;
const VOLUME_SPREAD = 0.2;

const logit = (p: number): number => log(p / (1 - p));
const logistic = (x: number): number => 1 / (1 + exp(-x));
const LOGIT_MIN = logit(PROB_MIN);
const LOGIT_MAX = logit(PROB_MAX);
const clamp = (x: number, lo: number, hi: number): number => min(hi, max(lo, x));

/** One market's moving parts, unrounded so small steps accumulate instead of being lost to the 4 decimals. */
export interface MarketState {
  readonly market: DemoPredictionMarket;
  readonly id: string;
  logit: number;
  /** Log of volume24h over the market's typical volume. */
  volumeDev: number;
}

/** The state at the start of the history: the catalogue's probability, and a volume drawn from its usual spread. */
export function initialState(market: DemoPredictionMarket, id: string, random: Random): MarketState {
  return { market, id, logit: clamp(logit(market.prob), LOGIT_MIN, LOGIT_MAX), volumeDev: VOLUME_SPREAD * random.normal() };
}

/** Moves the state on by `dt` ms (0 leaves it where it is). */
export function step(s: MarketState, dt: number, random: Random): void {
  const params = CLASS_PARAMS[s.market.volatility];
  const days = max(0, dt) / DAY_MS;
  // Always draw the same numbers, so whether a jump happened never shifts the market's later values.
  const z = random.normal();
  const jumpDraw = random.uniform();
  const jumpSize = random.uniform();
  const jumpSign = random.uniform();
  const volumeZ = random.normal();

  s.logit = clamp(s.logit + params.sigmaPerDay * sqrt(days) * z, LOGIT_MIN, LOGIT_MAX);

  let jumped = 0;
  if (jumpDraw < 1 - exp(-params.jumpsPerDay * days)) {
    // News is sized in points, not logit, so long shots move as visibly as toss-ups.
    jumped = JUMP_MIN + (JUMP_MAX - JUMP_MIN) * jumpSize;
    const p = logistic(s.logit);
    let target = jumpSign < 0.5 ? p - jumped : p + jumped;
    // A jump that would leave the range goes the other way: a 3 % long shot can only be news upwards.
    if (target < PROB_MIN || target > PROB_MAX) target = jumpSign < 0.5 ? p + jumped : p - jumped;
    s.logit = clamp(logit(clamp(target, PROB_MIN, PROB_MAX)), LOGIT_MIN, LOGIT_MAX);
  }

  // Exact Ornstein-Uhlenbeck step, so any dt (a late timer, a long pause) keeps the same spread.
  const decay = exp(-max(0, dt) / VOLUME_REVERT_MS);
  s.volumeDev = s.volumeDev * decay + VOLUME_SPREAD * sqrt(1 - decay * decay) * volumeZ;
  // Traders pile in after news: the bigger the jump, the busier the next hours.
  if (jumped > 0) s.volumeDev += 0.25 + 2 * jumped;
}

/** The state as the feed reports it: probability in [0.01, 0.99] to 4 decimals, whole-dollar volume. */
export function observe(s: MarketState, at: number): ProbabilityObservation {
  // Minus half the variance keeps the mean volume at the catalogue's typical one.
  const volume = s.market.volume24h * exp(s.volumeDev - (VOLUME_SPREAD * VOLUME_SPREAD) / 2);
  return {
    marketId: s.id,
    prob: clamp(roundProb(logistic(s.logit)), PROB_MIN, PROB_MAX),
    volume24h: max(0, round(volume)),
    observedAt: at,
  };
}
