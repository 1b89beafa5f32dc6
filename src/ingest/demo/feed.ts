/**
 * The offline demo feed: seeded history on start-up, then a random step per tick. Pure computation —
 * the caller owns the clock and the storage, and passes every time in, so a seed and a sequence of
 * times always give the same output.
 */
import { INTERVALS, type Candle, type Interval, type MarketMeta, type Quote } from '../../domain/market.js';
import { applyTrade } from '../candles.js';
import { DEMO_MARKETS, demoMarketMetas, type DemoMarket } from './catalogue.js';
import { generateHistory, type Regime } from './history.js';
import { DAY_MS } from '../../domain/time.js';
import { roundPrice, sigmaOver, volumeOver } from './model.js';
import { HOURLY_KEPT, quoteFromHourly } from './quote.js';
import { createRandom, type Random } from './random.js';

interface DemoFeedOptions {
  seed: number;
  /** Epoch ms the backfill ends at; ticks continue from here. */
  now: number;
  /** Candles per market and interval in the backfill (default 120). */
  historyLength?: number;
}

export interface FeedBatch {
  quotes: Quote[];
  candles: Candle[];
}

export interface DemoFeed {
  markets(): MarketMeta[];
  /** History up to `options.now`: the same snapshot on every call, whatever ticks ran since. */
  backfill(): FeedBatch;
  /** Moves every active market to `now` and returns the new quotes and current candles. */
  tick(now: number): FeedBatch;
}

const DEFAULT_HISTORY_LENGTH = 120;
/** A halted market's last quote is this old, far beyond any staleness bound. */
export const HALTED_AGO_MS = 3 * DAY_MS;
const HALTED_HISTORY = 24;
/** Rate of news-like jumps during ticks. */
const JUMPS_PER_DAY = 1.5;

/** What a tick needs to carry on from the backfill. */
interface LiveMarket {
  market: DemoMarket;
  random: Random;
  /** Unrounded, so tiny steps accumulate instead of being lost to the tick size. */
  price: number;
  current: Map<Interval, Candle>;
  hourly: Candle[];
}

/** About a third of markets trend up, a third down, the rest drift-free, so briefs are not all neutral. */
function drawRegime(seed: number, symbol: string): Regime {
  const r = createRandom(seed, `${symbol}|regime`);
  const kind = r.uniform();
  const strength = 0.1 + 0.15 * r.uniform();
  const start = 0.5 * r.uniform();
  return { drift: kind < 0.35 ? strength : kind < 0.65 ? -strength : 0, start };
}

/**
 * The same drift in candle units would compound to several-fold moves over 120 days of a volatile coin,
 * so the trend is muted on the long intervals: it reads as a recent regime, not a months-long rally.
 */
const REGIME_SCALE: Record<Interval, number> = { '5m': 1, '15m': 1, '1h': 1, '4h': 0.6, '1d': 0.35 };

/** Today's price: the catalogue level moved by about one daily standard deviation, so seeds differ. */
function drawPrice(seed: number, market: DemoMarket): number {
  const r = createRandom(seed, `${market.symbol}|price`);
  return market.price * Math.exp(sigmaOver(market.volatility, DAY_MS) * r.normal());
}

function buildBackfill(seed: number, now: number, historyLength: number): { batch: FeedBatch; live: LiveMarket[] } {
  const quotes: Quote[] = [];
  const candles: Candle[] = [];
  const live: LiveMarket[] = [];
  for (const market of DEMO_MARKETS) {
    const end = market.halted ? now - HALTED_AGO_MS : now;
    const length = market.halted ? Math.min(HALTED_HISTORY, historyLength) : historyLength;
    const price = drawPrice(seed, market);
    const regime = drawRegime(seed, market.symbol);
    const current = new Map<Interval, Candle>();
    let hourly: Candle[] = [];
    for (const interval of INTERVALS) {
      const series = generateHistory({
        market,
        interval,
        end,
        endPrice: price,
        length,
        regime: { drift: regime.drift * REGIME_SCALE[interval], start: regime.start },
        random: createRandom(seed, `${market.symbol}|${interval}|history`),
      });
      candles.push(...series);
      // Copies: the batch goes to the caller, who may mutate it.
      current.set(interval, { ...series[series.length - 1]! });
      if (interval === '1h') hourly = series.slice(-HOURLY_KEPT).map((c) => ({ ...c }));
    }
    quotes.push(quoteFromHourly(market.symbol, roundPrice(price, market.decimals), end, hourly));
    if (!market.halted) {
      live.push({ market, random: createRandom(seed, `${market.symbol}|tick`), price, current, hourly });
    }
  }
  return { batch: { quotes, candles }, live };
}

/** One market's step over `dt` ms: GBM with its volatility, plus an occasional jump. */
function step(m: LiveMarket, t: number, dt: number, candles: Candle[]): Quote {
  const { market, random } = m;
  const s = sigmaOver(market.volatility, dt);
  // Always draw the same numbers, so one market's branch never shifts its later values.
  const z = random.normal();
  const jumpDraw = random.uniform();
  const jumpSize = random.uniform();
  const jumpSign = random.uniform();
  let logReturn = s * z - 0.5 * s * s;
  if (jumpDraw < 1 - Math.exp((-JUMPS_PER_DAY * dt) / DAY_MS)) {
    logReturn += (jumpSign < 0.5 ? -1 : 1) * (0.5 + jumpSize) * sigmaOver(market.volatility, DAY_MS);
  }
  m.price *= Math.exp(logReturn);
  const price = roundPrice(m.price, market.decimals);
  const volume = volumeOver(market.dailyVolume, dt, random, z);

  for (const interval of INTERVALS) {
    const candle = applyTrade(m.current.get(interval), market.symbol, interval, t, price, volume);
    m.current.set(interval, candle);
    candles.push({ ...candle }); // a copy: the state keeps its own
  }
  const hour = m.current.get('1h')!;
  if (m.hourly[m.hourly.length - 1]?.openTime === hour.openTime) m.hourly[m.hourly.length - 1] = hour;
  else m.hourly.push(hour);
  if (m.hourly.length > HOURLY_KEPT) m.hourly.splice(0, m.hourly.length - HOURLY_KEPT);
  return quoteFromHourly(market.symbol, price, t, m.hourly);
}

export function createDemoFeed(options: DemoFeedOptions): DemoFeed {
  const { seed, now } = options;
  const historyLength = options.historyLength ?? DEFAULT_HISTORY_LENGTH;
  if (!Number.isFinite(seed)) throw new RangeError(`demo feed: bad seed ${seed}`);
  if (!Number.isFinite(now)) throw new RangeError(`demo feed: bad time ${now}`);
  if (!Number.isInteger(historyLength) || historyLength < 1) {
    throw new RangeError(`demo feed: historyLength must be a positive integer, got ${historyLength}`);
  }

  // The live state is built on first use; ticks continue from the backfill's last candles. The full
  // history is not kept: backfill() regenerates it (same seed, same output), which is cheaper than
  // holding ~20 000 candles for the life of the process.
  let state: { live: LiveMarket[]; lastTime: number } | undefined;
  const ensure = () => (state ??= { live: buildBackfill(seed, now, historyLength).live, lastTime: now });

  return {
    markets: demoMarketMetas,
    backfill() {
      const built = buildBackfill(seed, now, historyLength);
      state ??= { live: built.live, lastTime: now };
      return built.batch;
    },
    tick(at: number) {
      if (!Number.isFinite(at)) throw new RangeError(`demo feed: bad time ${at}`);
      const s = ensure();
      // Time never runs backwards here: a closed candle cannot be reopened.
      const t = Math.max(at, s.lastTime);
      const dt = t - s.lastTime;
      s.lastTime = t;
      const quotes: Quote[] = [];
      const candles: Candle[] = [];
      for (const m of s.live) quotes.push(step(m, t, dt, candles));
      return { quotes, candles };
    },
  };
}
