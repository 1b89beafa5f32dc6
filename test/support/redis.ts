/**
 * Redis for tests: the shared one (127.0.0.1:6379, as in CI) for exact-count tests, and servers a
 * test owns (its own port, started and stopped by the test) for failure tests, so the shared one
 * is never touched. With REQUIRE_SERVICES=1 a missing Redis fails instead of skipping.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort, waitForPort } from './ports.js';

export const SHARED_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const required = process.env.REQUIRE_SERVICES === '1';

export async function redisAvailable(): Promise<boolean> {
  // Jest's global setup found it unreachable and said so once (global-setup.mjs).
  if (process.env.MGW_TEST_NO_REDIS) return false;
  const client = new Redis(SHARED_REDIS_URL, { lazyConnect: true, connectTimeout: 1_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch (error) {
    if (required) throw new Error(`REQUIRE_SERVICES=1 but Redis at ${SHARED_REDIS_URL} is unreachable: ${String(error)}`);
    console.warn(`SKIPPING Redis tests: ${SHARED_REDIS_URL} unreachable (${String(error)})`);
    return false;
  } finally {
    client.disconnect();
  }
}

export interface OwnedRedis {
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** SIGSTOP: the server holds connections but answers nothing (a hung dependency). */
  pause(): void;
  resume(): void;
}

/** A redis-server of the test's own, on a free port, without persistence. */
export async function ownRedis(): Promise<OwnedRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const owned: OwnedRedis = {
    url: `redis://127.0.0.1:${port}/0`,
    async start() {
      child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      await waitForPort(port, true);
    },
    async stop() {
      if (!child) return;
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      child = undefined;
      await waitForPort(port, false);
    },
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
  };
  await owned.start();
  return owned;
}
