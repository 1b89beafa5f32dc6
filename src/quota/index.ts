import type { StoreConnection } from '../store/index.js';
import { HOUR_MS, MINUTE_MS } from '../domain/time.js';
import { deleteExpiredCounts, minuteCounter, postgresCounter, sqliteCounter } from './counters.js';
import type { PlanLimitTable } from './plans.js';
import { type CounterFactory, createQuotaService, type QuotaService } from './quota-service.js';

export type { QuotaDecision, QuotaService } from './quota-service.js';

/** How often day counts that expired over an hour ago are deleted. */
const PRUNE_EVERY_MS = 5 * MINUTE_MS;

/** Embedded default: minute counts in process, day counts durable in the store's engine. */
export function createStoreQuota(connection: StoreConnection, table?: PlanLimitTable): QuotaService & { stop(): void } {
  const factory: CounterFactory = async (window, prefix, limit) => {
    if (window === 'minute') return minuteCounter(limit);
    if (connection.sqlite) return sqliteCounter(connection.sqlite, prefix, limit);
    if (connection.pgPool) return postgresCounter(connection.pgPool, prefix, limit);
    throw new Error('no durable store for day quotas');
  };
  const timer = setInterval(() => void deleteExpiredCounts(connection, Date.now() - HOUR_MS), PRUNE_EVERY_MS).unref();
  return { ...createQuotaService(factory, table), stop: () => clearInterval(timer) };
}
