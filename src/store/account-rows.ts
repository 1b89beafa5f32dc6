/** An account as its row reads, for every query that returns one (the key lookup too). */
import type { Kysely } from 'kysely';
import { type Account, MARKET_DATA_PLANS, type MarketDataPlan, PREDICTION_PLANS, type PredictionPlan } from '../domain/account.js';
import type { AccountsTable, Database } from './tables.js';

export type AccountRow = Pick<AccountsTable, 'id' | 'name' | 'market_data_plan' | 'prediction_plan'>;

/**
 * The plan names as the domain's own constants, not the driver's fresh copies: an account is kept
 * for each of up to 50 000 cached keys, and two strings each were 10 % of an entry.
 */
const canonical = <T extends string>(names: readonly T[], value: string): T => names.find((name) => name === value) ?? (value as T);

export function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    name: row.name,
    marketDataPlan: canonical<MarketDataPlan>(MARKET_DATA_PLANS, row.market_data_plan),
    predictionPlan: canonical<PredictionPlan>(PREDICTION_PLANS, row.prediction_plan),
  };
}

export const ACCOUNT_COLUMNS = ['id', 'name', 'market_data_plan', 'prediction_plan'] as const;

/** One account by its id, on `db` or inside a transaction. */
export async function readAccount(db: Kysely<Database>, id: string): Promise<Account | undefined> {
  const row = await db.selectFrom('accounts').select(ACCOUNT_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toAccount(row) : undefined;
}
