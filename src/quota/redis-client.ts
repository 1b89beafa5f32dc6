/**
 * The Redis connection for shared quotas, tuned to fail fast: no offline queue (a command while
 * disconnected errors at once), a command timeout for a hung server, and reconnection forever in
 * the background, so the service recovers by itself when Redis is back.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { traceRedisCommands } from '../telemetry/redis-commands.js';

export const REDIS_COMMAND_TIMEOUT_MS = 300;

/**
 * ioredis is loaded only here, with REDIS_URL set: an embedded installation does not hold it (with
 * nodemailer, 3.7 MB of RSS). `commandTimeoutMs`: the service's requests fail fast; a test that
 * shares its event loop with services may allow more.
 */
export async function createRedisClient(url: string, logger: Logger, commandTimeoutMs = REDIS_COMMAND_TIMEOUT_MS): Promise<Redis> {
  const { Redis } = await import('ioredis');
  // Each command a client span of the request or job that sends it, when tracing is on.
  const redis = traceRedisCommands(
    new Redis(url, {
      enableOfflineQueue: false,
      commandTimeout: commandTimeoutMs,
      connectTimeout: 1_000,
      maxRetriesPerRequest: 0,
      retryStrategy: (attempt) => Math.min(100 * attempt, 1_000),
    }),
  );
  // One line per change of state, not one per failed reconnect. Before the first connection,
  // waitForRedis speaks for start-up (a refused setup stops it; a server down is one warning).
  let healthy = true;
  let connected = false;
  redis.on('error', (error) => {
    if (!healthy || !connected) return;
    healthy = false;
    logger.error({ reason: error.message }, 'redis unreachable; quota-metered requests answer 503 until it is back');
  });
  redis.on('ready', () => {
    connected = true;
    if (healthy) return;
    healthy = true;
    logger.info('redis reachable again');
  });
  return redis;
}

/**
 * Start-up waits for the first connection (bounded), so the first requests are not refused for
 * nothing. A server that answers but refuses the connection's setup (a database index it does not
 * have, a wrong password) is a configuration error: ioredis would log it and carry on in database 0,
 * so it is returned for start-up to refuse.
 */
export async function waitForRedis(redis: Redis, timeoutMs: number, logger: Logger): Promise<{ refused?: string }> {
  if (redis.status === 'ready') return {};
  let refused: string | undefined;
  const onError = (error: Error) => {
    if (error.name === 'ReplyError') refused ??= error.message;
  };
  redis.on('error', onError);
  const ready = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs).unref();
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  redis.off('error', onError);
  if (refused !== undefined) return { refused };
  if (!ready) logger.warn({ timeoutMs }, 'redis not reachable at start; serving 503 for metered requests until it is');
  return {};
}
