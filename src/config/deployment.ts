/**
 * Which role may run on which stores. A role that cannot work as configured is refused at start
 * with what to use instead, rather than running wrongly in silence (a worker on SQLite that no
 * HTTP instance can share, quotas counted per instance behind a load balancer).
 */
import type { Config } from './config.js';

/** `all`: `market-gateway start`, HTTP and jobs in one process; `http`: `serve`; `worker`: `worker`. */
export type Role = 'all' | 'http' | 'worker';

interface DeploymentCheck {
  /** Each names the setting to change; start-up stops on the first. */
  errors: string[];
  /** Accepted on purpose, logged at start. */
  warnings: string[];
}

export function checkDeployment(config: Pick<Config, 'databaseUrl' | 'redisUrl' | 'allowLocalQuotas'>, role: Role): DeploymentCheck {
  const errors: string[] = [];
  const warnings: string[] = [];
  if (role === 'worker' && !config.databaseUrl) {
    errors.push(
      'worker needs DATABASE_URL (PostgreSQL): it runs the jobs for HTTP instances that share its database. With SQLite, run `start` (HTTP and jobs in one process)',
    );
  }
  if (role === 'http' && !config.databaseUrl) {
    errors.push(
      'serve needs DATABASE_URL (PostgreSQL): on SQLite no worker could share the data and nothing would run the jobs. With SQLite, run `start` (HTTP and jobs in one process)',
    );
  }
  if (role === 'http' && config.databaseUrl && !config.redisUrl) {
    if (config.allowLocalQuotas)
      warnings.push('ALLOW_LOCAL_QUOTAS=1 without REDIS_URL: each instance counts quotas alone, so N instances allow N times every quota');
    else
      errors.push(
        'serve needs REDIS_URL: without it each instance counts quotas alone, and two instances allow twice every quota. Set REDIS_URL, or ALLOW_LOCAL_QUOTAS=1 to accept per-instance quotas',
      );
  }
  return { errors, warnings };
}
