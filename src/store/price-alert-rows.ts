/** A price alert as its row reads, and the version every change to an account's alerts bumps. */
import type { Kysely } from 'kysely';
import type { AlertKind, AlertStatus, PriceAlert } from '../domain/account.js';
import type { Database, PriceAlertsTable } from './tables.js';

export function toAlert(row: Omit<PriceAlertsTable, 'seq'>): PriceAlert {
  return {
    id: row.id,
    accountId: row.account_id,
    symbol: row.symbol,
    kind: row.kind as AlertKind,
    threshold: row.threshold,
    signal: row.signal,
    status: row.status as AlertStatus,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    triggeredAt: row.triggered_at,
  };
}

/** Every change to an account's alerts bumps its version, in the change's transaction. */
export const alertsChanged = (db: Kysely<Database>, accountId: string) =>
  db
    .updateTable('accounts')
    .set((eb) => ({ alerts_version: eb('alerts_version', '+', 1) }))
    .where('id', '=', accountId)
    .execute();

export const ALERT_COLUMNS = ['id', 'account_id', 'symbol', 'kind', 'threshold', 'signal', 'status', 'created_at', 'expires_at', 'triggered_at'] as const;
