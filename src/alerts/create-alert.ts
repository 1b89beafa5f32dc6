/**
 * Creating a price alert (D11), one set of rules for every entry point: the CLI, the
 * `createPriceAlert` mutation and the account dashboard call this. Cancelling one through its
 * account (the mutation, the dashboard) is `cancelPriceAlert`.
 */
import type { Account, AlertKind, PriceAlert } from '../domain/account.js';
import { normalizeSymbol, unknownSymbolsMessage } from '../domain/symbols.js';
import { forbidden, invalid as badRequest, notFound } from '../domain/errors.js';
import type { Store } from '../store/index.js';
import { BRIEF_SIGNALS } from '../analytics/signals.js';
import { accountScope } from '../domain/scope.js';

export interface CreateAlertInput {
  symbol: string;
  kind: AlertKind;
  threshold?: number | null | undefined;
  signal?: string | null | undefined;
  expiresAt?: number | null | undefined;
}

/** Price alerts are for the Pro and Enterprise market-data plans. */
export function assertAlertsPlan(account: Account): void {
  if (account.marketDataPlan === 'free') throw forbidden('price alerts need the pro or enterprise market-data plan');
}

export async function createPriceAlert(store: Store, account: Account, input: CreateAlertInput, now: number): Promise<PriceAlert> {
  assertAlertsPlan(account);
  const symbol = normalizeSymbol(input.symbol);
  const markets = await store.markets.listMarkets();
  if (!markets.some((m) => m.symbol === symbol))
    throw notFound(
      unknownSymbolsMessage(
        [symbol],
        markets.map((m) => m.symbol),
      ),
    );

  let threshold: number | null = null;
  let signal: string | null = null;
  if (input.kind === 'signal') {
    if (!input.signal || !(BRIEF_SIGNALS as readonly string[]).includes(input.signal)) {
      throw badRequest(`signal must be one of ${BRIEF_SIGNALS.join(', ')}`);
    }
    signal = input.signal;
  } else {
    if (input.threshold === null || input.threshold === undefined || !Number.isFinite(input.threshold)) {
      throw badRequest(`threshold is required for ${input.kind} and must be a finite number`);
    }
    if (input.kind !== 'change_above' && input.threshold <= 0) throw badRequest('threshold must be a positive price');
    if (input.kind === 'change_above' && input.threshold < 0) throw badRequest('threshold must be a percentage >= 0');
    threshold = input.threshold;
  }
  const expiresAt = input.expiresAt ?? null;
  if (expiresAt !== null && (!Number.isFinite(expiresAt) || expiresAt <= now)) {
    throw badRequest('expires_at must be a valid timestamp in the future');
  }
  return store.priceAlerts.create({ accountId: account.id, symbol, kind: input.kind, threshold, signal, expiresAt, now });
}

/** Cancels (deletes) one of the account's alerts; another account's is answered like a missing one. */
export async function cancelPriceAlert(store: Pick<Store, 'priceAlerts'>, accountId: string, id: string): Promise<PriceAlert> {
  const cancelled = await store.priceAlerts.cancel(id, accountScope(accountId));
  if (!cancelled) throw notFound(`no price alert with id ${id} on this account`);
  return cancelled;
}
