/** An account as its row reads, for every query that returns one (the key lookup too). */
import type { Account, MarketDataPlan, PredictionPlan } from '../domain/account.js';
import type { AccountsTable } from './tables.js';

export type AccountRow = Pick<AccountsTable, 'id' | 'name' | 'market_data_plan' | 'prediction_plan'>;

export function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    name: row.name,
    marketDataPlan: row.market_data_plan as MarketDataPlan,
    predictionPlan: row.prediction_plan as PredictionPlan,
  };
}
