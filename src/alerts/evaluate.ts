/** Variant A price alert transitions (D11), as a pure decision the caller then persists. */
import type { PriceAlert } from '../domain/account.js';
import type { Quote } from '../domain/market.js';
import { BRIEF_SIGNALS, type BriefSignal } from '../analytics/signals.js';

type AlertTransition = { status: 'triggered'; at: number } | { status: 'expired'; at: number } | null;

interface AlertObservation {
  quote: Quote;
  /** Signals of the symbol's latest brief; null when none was computed (a `signal` alert then waits). */
  signals: readonly string[] | null;
}

/** True for a name of the brief's signal vocabulary (the only names a `signal` alert may watch). */
export function isValidSignalName(name: unknown): name is BriefSignal {
  return typeof name === 'string' && (BRIEF_SIGNALS as readonly string[]).includes(name);
}

/**
 * Only active alerts move. Expiry wins over a trigger in the same evaluation, so an alert never
 * fires after its expires_at; a trigger is stamped with the quote's observation time.
 */
export function evaluatePriceAlert(alert: PriceAlert, observation: AlertObservation, now: number): AlertTransition {
  if (alert.status !== 'active') return null;
  if (alert.expiresAt !== null && alert.expiresAt <= now) return { status: 'expired', at: now };
  const { quote, signals } = observation;
  if (quote.symbol !== alert.symbol) return null;
  // Only a quote newer than the alert counts (D11: "a new quote"); a cached older one never triggers it.
  if (quote.observedAt < alert.createdAt) return null;
  return conditionMet(alert, quote, signals) ? { status: 'triggered', at: quote.observedAt } : null;
}

function conditionMet(alert: PriceAlert, quote: Quote, signals: readonly string[] | null): boolean {
  const { threshold } = alert;
  switch (alert.kind) {
    case 'price_above':
      return threshold !== null && quote.price >= threshold;
    case 'price_below':
      return threshold !== null && quote.price <= threshold;
    case 'change_above':
      return threshold !== null && Math.abs(quote.change24h) >= threshold;
    case 'signal':
      return alert.signal !== null && (signals?.includes(alert.signal) ?? false);
  }
}
