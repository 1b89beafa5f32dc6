import { evaluatePriceAlert, isValidSignalName } from '../../../src/alerts/evaluate.js';
import { BRIEF_SIGNALS } from '../../../src/analytics/signals.js';
import type { PriceAlert } from '../../../src/domain/account.js';
import type { Quote } from '../../../src/domain/market.js';

const NOW = Date.UTC(2026, 10, 22, 6, 0, 0);
const OBSERVED = NOW - 1_000;

function alert(overrides: Partial<PriceAlert>): PriceAlert {
  return {
    id: 'alr_1',
    accountId: 'acc_1',
    symbol: 'BTC/USD',
    kind: 'price_above',
    threshold: 100,
    signal: null,
    status: 'active',
    createdAt: NOW - 60_000,
    expiresAt: null,
    triggeredAt: null,
    ...overrides,
  };
}

function quote(overrides: Partial<Quote> = {}): Quote {
  return { symbol: 'BTC/USD', price: 100, change24h: 0, volume24h: 10, observedAt: OBSERVED, ...overrides };
}

const triggered = { status: 'triggered', at: OBSERVED } as const;

describe('evaluatePriceAlert', () => {
  it.each([
    ['price_above', 100, { price: 100.01 }, triggered],
    ['price_above', 100, { price: 100 }, triggered], // boundary: at the threshold
    ['price_above', 100, { price: 99.99 }, null],
    ['price_below', 100, { price: 99.99 }, triggered],
    ['price_below', 100, { price: 100 }, triggered],
    ['price_below', 100, { price: 100.01 }, null],
    ['change_above', 5, { change24h: 5 }, triggered],
    ['change_above', 5, { change24h: -5 }, triggered], // absolute change
    ['change_above', 5, { change24h: -7.5 }, triggered],
    ['change_above', 5, { change24h: 4.99 }, null],
    ['change_above', 5, { change24h: -4.99 }, null],
    ['change_above', 0, { change24h: 0 }, triggered],
  ] as const)('%s %d with %j -> %j', (kind, threshold, q, expected) => {
    expect(evaluatePriceAlert(alert({ kind, threshold }), { quote: quote(q), signals: null }, NOW)).toEqual(expected);
  });

  it('triggers a signal alert when the brief signals include its signal', () => {
    const a = alert({ kind: 'signal', threshold: null, signal: 'rsi_overbought' });
    expect(evaluatePriceAlert(a, { quote: quote(), signals: ['above_sma50', 'rsi_overbought'] }, NOW)).toEqual(triggered);
    expect(evaluatePriceAlert(a, { quote: quote(), signals: ['rsi_oversold'] }, NOW)).toBeNull();
    expect(evaluatePriceAlert(a, { quote: quote(), signals: [] }, NOW)).toBeNull();
    // Signals not computed (e.g. no candles yet): wait.
    expect(evaluatePriceAlert(a, { quote: quote(), signals: null }, NOW)).toBeNull();
  });

  it('ignores signals for price kinds and prices for signal kinds', () => {
    const price = alert({ kind: 'price_above', threshold: 1000 });
    expect(evaluatePriceAlert(price, { quote: quote(), signals: [...BRIEF_SIGNALS] }, NOW)).toBeNull();
    const signal = alert({ kind: 'signal', threshold: null, signal: 'golden_cross' });
    expect(evaluatePriceAlert(signal, { quote: quote({ price: 1e9, change24h: 99 }), signals: [] }, NOW)).toBeNull();
  });

  it('does not trigger on a quote of another symbol', () => {
    const a = alert({ kind: 'price_above', threshold: 1 });
    expect(evaluatePriceAlert(a, { quote: quote({ symbol: 'ETH/USD', price: 5000 }), signals: null }, NOW)).toBeNull();
    const s = alert({ kind: 'signal', threshold: null, signal: 'volume_spike' });
    expect(evaluatePriceAlert(s, { quote: quote({ symbol: 'ETH/USD' }), signals: ['volume_spike'] }, NOW)).toBeNull();
  });

  it('expires at now once expires_at has passed or is reached, before any trigger', () => {
    const met = { quote: quote({ price: 500 }), signals: null };
    expect(evaluatePriceAlert(alert({ expiresAt: NOW }), met, NOW)).toEqual({ status: 'expired', at: NOW });
    expect(evaluatePriceAlert(alert({ expiresAt: NOW - 1 }), met, NOW)).toEqual({ status: 'expired', at: NOW });
    // Expiry is decided for any symbol: the clock, not the quote, drives it.
    const other = { quote: quote({ symbol: 'ETH/USD' }), signals: null };
    expect(evaluatePriceAlert(alert({ expiresAt: NOW - 1 }), other, NOW)).toEqual({ status: 'expired', at: NOW });
    // Still active one millisecond before.
    expect(evaluatePriceAlert(alert({ expiresAt: NOW + 1 }), met, NOW)).toEqual(triggered);
    expect(evaluatePriceAlert(alert({ expiresAt: NOW + 1 }), { quote: quote({ price: 1 }), signals: null }, NOW)).toBeNull();
  });

  it('never moves a triggered or expired alert', () => {
    const met = { quote: quote({ price: 500 }), signals: ['rsi_overbought'] };
    for (const status of ['triggered', 'expired'] as const) {
      expect(evaluatePriceAlert(alert({ status, triggeredAt: NOW - 5 }), met, NOW)).toBeNull();
      expect(evaluatePriceAlert(alert({ status, expiresAt: NOW - 1 }), met, NOW)).toBeNull();
      const s = alert({ status, kind: 'signal', threshold: null, signal: 'rsi_overbought' });
      expect(evaluatePriceAlert(s, met, NOW)).toBeNull();
    }
  });

  it('does not trigger a price kind without a threshold', () => {
    for (const kind of ['price_above', 'price_below', 'change_above'] as const) {
      expect(evaluatePriceAlert(alert({ kind, threshold: null }), { quote: quote(), signals: null }, NOW)).toBeNull();
    }
  });
});

describe('isValidSignalName', () => {
  it('accepts exactly the brief vocabulary', () => {
    for (const name of BRIEF_SIGNALS) expect(isValidSignalName(name)).toBe(true);
    for (const name of ['', 'RSI_OVERBOUGHT', 'rsi overbought', 'toString', 'constructor', null, undefined, 3]) {
      expect(isValidSignalName(name)).toBe(false);
    }
  });
});
