/**
 * Redis for tests: the shared one (127.0.0.1:6379, as in CI) for exact-count tests, and servers a
 * test owns (its own port, started and stopped by the test) for failure tests, so the shared one
 * is never touched. With REQUIRE_SERVICES=1 a missing Redis stops the run in Jest's global setup.
 */
import { present } from './gates.js';
import { type Launched, launch } from './launch.js';
import { freePort, waitForPort } from './ports.js';

export const SHARED_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

/** Whether the shared Redis is there: Jest's global setup checked once, and said so (gates.ts). */
export async function redisAvailable(): Promise<boolean> {
  return present('redis');
}

export interface OwnedRedis {
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** SIGSTOP: the server holds connections but answers nothing (a hung dependency). */
  pause(): void;
  resume(): void;
}

/**
 * The environment of a test's own redis-server: without libfaketime, which `npm run test:midnight`
 * preloads into every process of the run (scripts/test-at.mjs). Redis keeps the real time there, as
 * the shared one does; under the shifted clock it never listened.
 */
function realTimeEnv(): NodeJS.ProcessEnv {
  const { LD_PRELOAD: _preload, FAKETIME: _offset, ...env } = process.env;
  return env;
}

/** A redis-server of the test's own, on a free port, without persistence. */
export async function ownRedis(): Promise<OwnedRedis> {
  const port = await freePort();
  let server: Launched | undefined;
  const owned: OwnedRedis = {
    url: `redis://127.0.0.1:${port}/0`,
    async start() {
      // By the one launcher: killed with the test file whatever the outcome (launch.ts).
      server = launch('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
        quiet: true,
        env: realTimeEnv(),
      });
      await waitForPort(port, true);
    },
    async stop() {
      if (!server) return;
      server.child.kill('SIGCONT');
      await server.kill();
      server = undefined;
      await waitForPort(port, false);
    },
    pause: () => void server?.child.kill('SIGSTOP'),
    resume: () => void server?.child.kill('SIGCONT'),
  };
  await owned.start();
  return owned;
}
