/**
 * Events for live subscriptions that no read model holds: an account's price alerts changing
 * state. The process running the alert evaluator publishes them here as they happen; subscribers
 * listen per account.
 */
import type { PriceAlert } from '../domain/account.js';
import { Listeners } from './listeners.js';

export type PriceAlertEventTypeModel = 'triggered' | 'expired';

export interface PriceAlertEventModel {
  type: PriceAlertEventTypeModel;
  /** The alert after the change. */
  alert: PriceAlert;
  at: number;
}

export class LiveEvents {
  private readonly priceAlerts = new Map<string, Listeners<PriceAlertEventModel>>();
  private readonly anyPriceAlert = new Listeners<PriceAlertEventModel>();

  publishPriceAlert(event: PriceAlertEventModel): void {
    this.anyPriceAlert.emit(event);
    this.priceAlerts.get(event.alert.accountId)?.emit(event);
  }

  /** Every account's price alert events (caches of alerts). */
  onAnyPriceAlert(listener: (event: PriceAlertEventModel) => void): () => void {
    return this.anyPriceAlert.add(listener);
  }

  /** Listens to one account's price alert events; returns what stops it. */
  onPriceAlert(accountId: string, listener: (event: PriceAlertEventModel) => void): () => void {
    let listeners = this.priceAlerts.get(accountId);
    if (!listeners) {
      listeners = new Listeners();
      this.priceAlerts.set(accountId, listeners);
    }
    const remove = listeners.add(listener);
    return () => {
      remove();
      if (listeners.size === 0) this.priceAlerts.delete(accountId);
    };
  }
}
