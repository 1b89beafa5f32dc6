import type { StoreConnection } from '../store/index.js';
import { memoryCounter, postgresCounter, sqliteCounter } from './counters.js';
import type { PlanLimitTable } from './plans.js';
import { type CounterFactory, createQuotaService } from './quota-service.js';

export type { QuotaDecision, QuotaService } from './quota-service.js';

/** Embedded default: minute counts in process, day counts durable in the store's engine. */
export function createStoreQuota(connection: StoreConnection, table?: PlanLimitTable) {
  const factory: CounterFactory = async (window, prefix, limit) => {
    if (window === 'minute') return memoryCounter(prefix, limit);
    if (connection.sqlite) return sqliteCounter(connection.sqlite, prefix, limit);
    if (connection.pgPool) return postgresCounter(connection.pgPool, prefix, limit);
    throw new Error('no durable store for day quotas');
  };
  return createQuotaService(factory, table);
}
