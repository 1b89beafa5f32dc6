/** The usage records as read: requests grouped by day, route or key; an account's own view; a route's callers. */
import { type Kysely, sql } from 'kysely';
import type { Database } from './tables.js';

export type UsageGrouping = 'day' | 'route' | 'key';

export interface UsageFilter {
  /** First UTC day included, `YYYY-MM-DD`. */
  sinceDay: string;
  accountId?: string;
  keyId?: string;
  /** Only these routes (the REST routes' ids, say). */
  routes?: readonly string[];
}

/** One group of a report: its day, route or key (with the key's account), the requests and the last one. */
export interface UsageGroup {
  day?: string;
  route?: string;
  keyId?: string;
  accountId?: string;
  requests: number;
  lastAt: number;
}

/** A caller of a route in the period: who (with the names the operator gave), how often, when last. */
export interface RouteCaller {
  route: string;
  accountId: string;
  accountName: string | null;
  keyId: string;
  keyName: string | null;
  requests: number;
  lastAt: number;
}

const COLUMNS_OF: Record<UsageGrouping, readonly ('day' | 'route' | 'key_id' | 'account_id')[]> = {
  day: ['day'],
  route: ['route'],
  key: ['key_id', 'account_id'],
};

// SUM over bigint is numeric on PostgreSQL (read as a string): cast back to bigint, read as a number.
const requestsSum = sql<number>`cast(sum(requests) as bigint)`.as('requests');
const lastAtMax = sql<number>`max(last_at)`.as('last_at');

export function createUsageReports(db: Kysely<Database>) {
  function filtered(filter: UsageFilter) {
    // Qualified: the callers' report joins tables that have an account_id of their own.
    let query = db.selectFrom('usage_days').where('usage_days.day', '>=', filter.sinceDay);
    if (filter.accountId !== undefined) query = query.where('usage_days.account_id', '=', filter.accountId);
    if (filter.keyId !== undefined) query = query.where('usage_days.key_id', '=', filter.keyId);
    if (filter.routes !== undefined) query = query.where('usage_days.route', 'in', filter.routes.length > 0 ? [...filter.routes] : ['']);
    return query;
  }

  return {
    /** Requests grouped by day, route or key (oldest day, busiest route or key first). */
    async report(filter: UsageFilter, by: UsageGrouping): Promise<UsageGroup[]> {
      const columns = COLUMNS_OF[by];
      let query = filtered(filter)
        .select([...columns, requestsSum, lastAtMax])
        .groupBy([...columns]);
      query = by === 'day' ? query.orderBy('day') : query.orderBy('requests', 'desc').orderBy(columns[0]!);
      const rows = await query.execute();
      return rows.map((row) => ({
        ...(row.day !== undefined ? { day: row.day } : {}),
        ...(row.route !== undefined ? { route: row.route } : {}),
        ...(row.key_id !== undefined ? { keyId: row.key_id, accountId: row.account_id } : {}),
        requests: Number(row.requests),
        lastAt: Number(row.last_at),
      }));
    },

    /** An account's requests per day and route (the account's own view), oldest day first. */
    async byDayAndRoute(accountId: string, sinceDay: string): Promise<{ day: string; route: string; requests: number }[]> {
      const rows = await filtered({ accountId, sinceDay })
        .select(['day', 'route', requestsSum])
        .groupBy(['day', 'route'])
        .orderBy('day')
        .orderBy('route')
        .execute();
      return rows.map((row) => ({ day: row.day, route: row.route, requests: Number(row.requests) }));
    },

    /** Per route, the keys (with their accounts) that called it in the period. */
    async callers(filter: UsageFilter): Promise<RouteCaller[]> {
      const rows = await filtered(filter)
        .leftJoin('accounts', 'accounts.id', 'usage_days.account_id')
        .leftJoin('api_keys', 'api_keys.id', 'usage_days.key_id')
        .select([
          'usage_days.route',
          'usage_days.account_id',
          'accounts.name as account_name',
          'usage_days.key_id',
          'api_keys.name as key_name',
          requestsSum,
          lastAtMax,
        ])
        .groupBy(['usage_days.route', 'usage_days.account_id', 'accounts.name', 'usage_days.key_id', 'api_keys.name'])
        .orderBy('route')
        .orderBy('requests', 'desc')
        .execute();
      return rows.map((row) => ({
        route: row.route,
        accountId: row.account_id,
        accountName: row.account_name,
        keyId: row.key_id,
        keyName: row.key_name,
        requests: Number(row.requests),
        lastAt: Number(row.last_at),
      }));
    },
  };
}
