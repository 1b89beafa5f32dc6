/**
 * Each account's price alerts, kept per account and reused while the account's alerts version (in
 * the store, bumped by every change from any process) stays the same. The version itself is kept
 * for a quarter of a second: changes made here (mutations, the alert evaluator, and other instances'
 * evaluators through their notices) drop it at once; a change by another process that sends no
 * notice (the CLI) is seen within that quarter second.
 */
import { LRUCache } from 'lru-cache';
import type { AlertStatus, PriceAlert } from '../domain/account.js';
import type { Store } from '../store/index.js';
import type { LiveEvents } from './live-events.js';
import { accountScope } from '../domain/scope.js';

/** Accounts whose alerts are kept; the least recently read go first. */
const ACCOUNTS_KEPT = 10_000;
/** How long a version read from the store is trusted without a change seen here. */
export const VERSION_TRUSTED_MS = 250;

export class AccountAlerts {
  private readonly lists = new LRUCache<string, { version: number; alerts: PriceAlert[] }>({ max: ACCOUNTS_KEPT });
  private readonly versions = new LRUCache<string, number>({ max: ACCOUNTS_KEPT, ttl: VERSION_TRUSTED_MS, ttlAutopurge: false });

  private readonly store: Pick<Store, 'accounts' | 'priceAlerts'>;

  constructor(store: Pick<Store, 'accounts' | 'priceAlerts'>, live?: LiveEvents) {
    this.store = store;
    live?.onAnyPriceAlert((event) => this.changed(event.alert.accountId));
  }

  /** The account's alerts changed (here, or as another instance said): the next read asks the store. */
  changed(accountId: string): void {
    this.versions.delete(accountId);
  }

  /** Changes whenever the account's alerts may have changed. */
  async version(accountId: string): Promise<number> {
    const known = this.versions.get(accountId);
    if (known !== undefined) return known;
    const version = await this.store.accounts.alertsVersion(accountId);
    this.versions.set(accountId, version);
    return version;
  }

  /** Newest created first, as the store orders them. */
  async list(accountId: string, filter: { status?: AlertStatus | undefined; symbol?: string | undefined } = {}): Promise<PriceAlert[]> {
    // The version is read before the list: a change in between is listed under the older version,
    // and the next read, seeing the newer one, reads again. A stale list is never kept as current.
    const version = await this.version(accountId);
    let entry = this.lists.get(accountId);
    if (!entry || entry.version !== version) {
      entry = { version, alerts: await this.store.priceAlerts.list({ scope: accountScope(accountId) }) };
      this.lists.set(accountId, entry);
    }
    return entry.alerts.filter((a) => (!filter.status || a.status === filter.status) && (!filter.symbol || a.symbol === filter.symbol));
  }
}
