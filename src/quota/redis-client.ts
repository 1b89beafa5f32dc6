/**
 * The Redis connection for shared quotas, tuned to fail fast: no offline queue (a command while
 * disconnected errors at once), a command timeout for a hung server, and reconnection forever in
 * the background, so the service recovers by itself when Redis is back.
 */
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

export const REDIS_COMMAND_TIMEOUT_MS = 300;

export function createRedisClient(url: string, logger: Logger): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 1_000,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(100 * attempt, 1_000),
  });
  // One line per change of state, not one per failed reconnect.
  let healthy = true;
  redis.on('error', (error) => {
    if (!healthy) return;
    healthy = false;
    logger.error({ reason: error.message }, 'redis unreachable; quota-metered requests answer 503 until it is back');
  });
  redis.on('ready', () => {
    if (healthy) return;
    healthy = true;
    logger.info('redis reachable again');
  });
  return redis;
}

/** Start-up waits for the first connection (bounded), so the first requests are not refused for nothing. */
export async function waitForRedis(redis: Redis, timeoutMs: number, logger: Logger): Promise<void> {
  if (redis.status === 'ready') return;
  const ready = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs).unref();
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  if (!(await ready)) logger.warn({ timeoutMs }, 'redis not reachable at start; serving 503 for metered requests until it is');
}
