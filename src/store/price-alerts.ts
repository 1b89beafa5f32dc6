/** Price alerts of variant A (D11). Status transitions are conditional updates, so each happens once. */
import type { Kysely } from 'kysely';
import type { AlertKind, AlertStatus, PriceAlert } from '../domain/account.js';
import { newId } from '../domain/ids.js';
import type { Scope } from '../domain/scope.js';
import { createPriceAlertEvaluation } from './price-alert-evaluation.js';
import { alertsChanged, ALERT_COLUMNS, toAlert } from './price-alert-rows.js';
import type { Database } from './tables.js';

interface NewPriceAlert {
  accountId: string;
  symbol: string;
  kind: AlertKind;
  threshold: number | null;
  signal: string | null;
  expiresAt: number | null;
  now: number;
}

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
      let query = db.selectFrom('price_alerts').select(ALERT_COLUMNS);
      if (filter.scope.kind === 'account') query = query.where('account_id', '=', filter.scope.accountId);
      if (filter.status) query = query.where('status', '=', filter.status);
      if (filter.symbol) query = query.where('symbol', '=', filter.symbol);
      const rows = await query.orderBy('created_at', 'desc').orderBy('seq', 'desc').execute();
      return rows.map(toAlert);
    },

    /** In an account's scope, only that account's alert. */
    async findById(id: string, scope: Scope): Promise<PriceAlert | undefined> {
      let query = db.selectFrom('price_alerts').select(ALERT_COLUMNS).where('id', '=', id);
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
        const row = await query.returning(ALERT_COLUMNS).executeTakeFirst();
        if (row) await alertsChanged(trx, row.account_id);
        return row ? toAlert(row) : undefined;
      });
    },

    ...createPriceAlertEvaluation(db),
  };
}

export type PriceAlertRepository = ReturnType<typeof createPriceAlertRepository>;
