/**
 * The events webhooks carry. A price alert event's `data` is the alert as variant A's `/alerts`
 * shows it, plus the quote it was judged on (null for an expiry without a quote).
 */
import { roundTo, shownPrice } from '../analytics/round.js';
import type { PriceAlert } from '../domain/account.js';
import type { Quote } from '../domain/market.js';
import { isoOrNull } from '../domain/time.js';
import type { OutboxEvent } from '../store/webhooks.js';

export function priceAlertEvent(alert: PriceAlert, status: 'triggered' | 'expired', at: number, quote: Quote | null): OutboxEvent {
  return {
    type: status === 'triggered' ? 'price_alert.triggered' : 'price_alert.expired',
    accountId: alert.accountId,
    at,
    data: {
      alert: {
        id: alert.id,
        status,
        triggered_at: status === 'triggered' ? isoOrNull(at) : null,
        symbol: alert.symbol,
        kind: alert.kind,
        threshold: alert.threshold,
        signal: alert.signal,
        created_at: isoOrNull(alert.createdAt),
        expires_at: isoOrNull(alert.expiresAt),
      },
      quote: quote
        ? { symbol: quote.symbol, price: shownPrice(quote.price), change_24h: roundTo(quote.change24h, 2), observed_at: isoOrNull(quote.observedAt) }
        : null,
    },
  };
}

/** `webhook.test`: sent to one endpoint when its owner asks, to check the receiver and its secret. */
export function testEvent(accountId: string, endpointId: string, at: number): OutboxEvent {
  return { type: 'webhook.test', accountId, at, data: { endpoint_id: endpointId, message: 'A test event from market-gateway.' } };
}
