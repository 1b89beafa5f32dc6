/**
 * The brief's named signals (docs/brief-method.md). The names are a public contract: price alerts
 * of kind `signal` store them, so never rename one; add new names at the end.
 */
import type { Candle, Indicators } from '../domain/market.js';

export const BRIEF_SIGNALS = [
  'rsi_overbought',
  'rsi_oversold',
  'macd_bullish_cross',
  'macd_bearish_cross',
  'golden_cross',
  'death_cross',
  'above_sma50',
  'below_sma50',
  'bollinger_breakout_up',
  'bollinger_breakout_down',
  'volume_spike',
] as const;
export type BriefSignal = (typeof BRIEF_SIGNALS)[number];

export const RSI_OVERBOUGHT = 70;
const RSI_OVERSOLD = 30;
/** volume_spike: last volume above this multiple of the mean of the previous VOLUME_LOOKBACK candles. */
const VOLUME_SPIKE_FACTOR = 2;
const VOLUME_LOOKBACK = 20;

interface SignalInput {
  candles: readonly Candle[];
  /** Indicators after the last candle (already rounded, so signals agree with what the brief shows). */
  now: Indicators;
  /** Indicators after the candle before it; null with a single candle. */
  before: Indicators | null;
}

/** The signals firing now, in BRIEF_SIGNALS order. A signal whose inputs are null does not fire. */
export function detectSignals({ candles, now, before }: SignalInput): BriefSignal[] {
  const last = candles.at(-1);
  if (!last) return [];
  const close = last.close;
  const fired = new Set<BriefSignal>();
  const fire = (name: BriefSignal, when: boolean): void => {
    if (when) fired.add(name);
  };

  if (now.rsi14 !== null) {
    fire('rsi_overbought', now.rsi14 > RSI_OVERBOUGHT);
    fire('rsi_oversold', now.rsi14 < RSI_OVERSOLD);
  }
  const hist = now.macdHistogram;
  const prevHist = before?.macdHistogram ?? null;
  if (hist !== null && prevHist !== null) {
    fire('macd_bullish_cross', prevHist <= 0 && hist > 0);
    fire('macd_bearish_cross', prevHist >= 0 && hist < 0);
  }
  const prevFast = before?.sma20 ?? null;
  const prevSlow = before?.sma50 ?? null;
  if (now.sma20 !== null && now.sma50 !== null && prevFast !== null && prevSlow !== null) {
    fire('golden_cross', prevFast <= prevSlow && now.sma20 > now.sma50);
    fire('death_cross', prevFast >= prevSlow && now.sma20 < now.sma50);
  }
  if (now.sma50 !== null) {
    fire('above_sma50', close > now.sma50);
    fire('below_sma50', close < now.sma50);
  }
  if (now.bollingerUpper !== null && now.bollingerLower !== null) {
    fire('bollinger_breakout_up', close > now.bollingerUpper);
    fire('bollinger_breakout_down', close < now.bollingerLower);
  }
  fire('volume_spike', isVolumeSpike(candles));

  return BRIEF_SIGNALS.filter((name) => fired.has(name));
}

function isVolumeSpike(candles: readonly Candle[]): boolean {
  if (candles.length < VOLUME_LOOKBACK + 1) return false;
  const previous = candles.slice(-VOLUME_LOOKBACK - 1, -1);
  const mean = previous.reduce((sum, c) => sum + c.volume, 0) / VOLUME_LOOKBACK;
  const last = candles[candles.length - 1]!.volume;
  return Number.isFinite(mean) && last > VOLUME_SPIKE_FACTOR * mean;
}
