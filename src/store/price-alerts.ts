/** Price alerts of variant A (D11). Status transitions are conditional updates, so each happens once. */
import type { Kysely } from 'kysely';
import type { AlertKind, AlertStatus, PriceAlert } from '../domain/account.js';
import { newId } from '../domain/ids.js';
import type { Scope } from '../domain/scope.js';
import type { Database, PriceAlertsTable } from './tables.js';
import { enqueueEvent, type OutboxEvent } from './webhook-outbox.js';

interface NewPriceAlert {
  accountId: string;
  symbol: string;
  kind: AlertKind;
  threshold: number | null;
  signal: string | null;
  expiresAt: number | null;
  now: number;
}

function toAlert(row: Omit<PriceAlertsTable, 'seq'>): PriceAlert {
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
const alertsChanged = (db: Kysely<Database>, accountId: string) =>
  db
    .updateTable('accounts')
    .set((eb) => ({ alerts_version: eb('alerts_version', '+', 1) }))
    .where('id', '=', accountId)
    .execute();

const COLUMNS = ['id', 'account_id', 'symbol', 'kind', 'threshold', 'signal', 'status', 'created_at', 'expires_at', 'triggered_at'] as const;

export function createPriceAlertRepository(db: Kysely<Database>) {
  return {
    async create(input: NewPriceAlert): Promise<PriceAlert> {
      const row = {
        id: newId('alrt'),
        account_id: input.accountId,
        symbol: input.symbol,
        kind: input.kind,
        threshold: input.threshold,
        signal: input.signal,
        status: 'active',
        created_at: input.now,
        expires_at: input.expiresAt,
        triggered_at: null,
      };
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('price_alerts').values(row).execute();
        await alertsChanged(trx, input.accountId);
      });
      return toAlert(row);
    },

    /** Newest created first; `seq` breaks ties of the same millisecond. The operator's scope: every account's. */
    async list(filter: { scope: Scope; status?: AlertStatus | undefined; symbol?: string | undefined }): Promise<PriceAlert[]> {
      let query = db.selectFrom('price_alerts').select(COLUMNS);
      if (filter.scope.kind === 'account') query = query.where('account_id', '=', filter.scope.accountId);
      if (filter.status) query = query.where('status', '=', filter.status);
      if (filter.symbol) query = query.where('symbol', '=', filter.symbol);
      const rows = await query.orderBy('created_at', 'desc').orderBy('seq', 'desc').execute();
      return rows.map(toAlert);
    },

    /** In an account's scope, only that account's alert. */
    async findById(id: string, scope: Scope): Promise<PriceAlert | undefined> {
      let query = db.selectFrom('price_alerts').select(COLUMNS).where('id', '=', id);
      if (scope.kind === 'account') query = query.where('account_id', '=', scope.accountId);
      const row = await query.executeTakeFirst();
      return row ? toAlert(row) : undefined;
    },

    /**
     * Cancels an alert: it is deleted, whatever its status (the statuses are fixed by the API: a
     * cancelled alert has none), and the evaluator, which reads the active ones on every run, never
     * sees it again. In an account's scope, only that account's alert. Returns the alert as it was.
     */
    async cancel(id: string, scope: Scope): Promise<PriceAlert | undefined> {
      return db.transaction().execute(async (trx) => {
        let query = trx.deleteFrom('price_alerts').where('id', '=', id);
        if (scope.kind === 'account') query = query.where('account_id', '=', scope.accountId);
        const row = await query.returning(COLUMNS).executeTakeFirst();
        if (row) await alertsChanged(trx, row.account_id);
        return row ? toAlert(row) : undefined;
      });
    },

    async listActive(): Promise<PriceAlert[]> {
      const rows = await db.selectFrom('price_alerts').select(COLUMNS).where('status', '=', 'active').execute();
      return rows.map(toAlert);
    },

    /**
     * Moves an alert out of `active` once; returns false if it already left `active`. With `event`,
     * the webhook event it causes is written in the same transaction (the outbox): a crash keeps
     * both or neither.
     */
    async transition(id: string, status: 'triggered' | 'expired', at: number, event?: OutboxEvent): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const moved = await trx
          .updateTable('price_alerts')
          .set(status === 'triggered' ? { status, triggered_at: at } : { status })
          .where('id', '=', id)
          .where('status', '=', 'active')
          .returning('account_id')
          .executeTakeFirst();
        if (!moved) return false;
        await alertsChanged(trx, moved.account_id);
        if (event) await enqueueEvent(trx, event);
        return true;
      });
    },
  };
}

export type PriceAlertRepository = ReturnType<typeof createPriceAlertRepository>;
