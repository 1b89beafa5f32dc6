/** Runs the brief's indicators (trading-signals v8) over a candle series. */
import { ATR, BollingerBands, EMA, MACD, RSI, SMA } from 'trading-signals';
import type { Candle, Indicators } from '../domain/market.js';

interface IndicatorRun {
  /** After the last candle. */
  now: Indicators;
  /** After the candle before the last one (for crossings); null with a single candle. */
  before: Indicators | null;
}

/** Values are raw (unrounded), null until the library reports the indicator stable, never NaN/Infinity. */
export function computeIndicators(candles: readonly Candle[]): IndicatorRun {
  const set = createSet();
  let before: Indicators | null = null;
  // trading-signals reports RSI 100 when average gain and loss are both 0 (0/0); on a series that
  // never moved we report the neutral 50 instead.
  let flat = true;
  candles.forEach((candle, i) => {
    flat &&= candle.close === candles[0]!.close;
    feed(set, candle);
    if (i === candles.length - 2) before = snapshot(set, flat);
  });
  return { now: snapshot(set, flat), before };
}

interface IndicatorSet {
  rsi14: RSI;
  sma20: SMA;
  sma50: SMA;
  ema12: EMA;
  ema26: EMA;
  macd: MACD;
  /** The MACD's own signal line, kept to ask whether it is stable yet. */
  macdSignal: EMA;
  bollinger: BollingerBands;
  atr14: ATR;
}

function createSet(): IndicatorSet {
  const macdSignal = new EMA(9);
  return {
    rsi14: new RSI(14),
    sma20: new SMA(20),
    sma50: new SMA(50),
    ema12: new EMA(12),
    ema26: new EMA(26),
    macd: new MACD(new EMA(12), new EMA(26), macdSignal),
    macdSignal,
    bollinger: new BollingerBands(20, 2),
    atr14: new ATR(14),
  };
}

function feed(set: IndicatorSet, c: Candle): void {
  set.rsi14.add(c.close);
  set.sma20.add(c.close);
  set.sma50.add(c.close);
  set.ema12.add(c.close);
  set.ema26.add(c.close);
  set.macd.add(c.close);
  set.bollinger.add(c.close);
  set.atr14.add({ high: c.high, low: c.low, close: c.close });
}

function snapshot(set: IndicatorSet, flat: boolean): Indicators {
  const macd = set.macd.getResult();
  // The MACD line is stable after 26 closes, its signal line (EMA 9 of the line) only 8 closes later.
  const signalStable = set.macdSignal.isStable;
  const bands = set.bollinger.getResult();
  const rsi = set.rsi14.getResult();
  return {
    rsi14: finite(rsi !== null && flat ? 50 : rsi),
    sma20: finite(set.sma20.getResult()),
    sma50: finite(set.sma50.getResult()),
    // getResult() is null until the EMA has seen `interval` prices.
    ema12: finite(set.ema12.getResult()),
    ema26: finite(set.ema26.getResult()),
    macd: finite(macd?.macd),
    macdSignal: signalStable ? finite(macd?.signal) : null,
    macdHistogram: signalStable ? finite(macd?.histogram) : null,
    bollingerUpper: finite(bands?.upper),
    bollingerMiddle: finite(bands?.middle),
    bollingerLower: finite(bands?.lower),
    atr14: finite(set.atr14.getResult()),
  };
}

function finite(value: number | null | undefined): number | null {
  return value !== null && value !== undefined && Number.isFinite(value) ? value : null;
}
