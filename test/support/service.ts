/**
 * The real service in-process for tests: real store (SQLite temp dir or a PostgreSQL schema),
 * real HTTP listeners on 127.0.0.1, a controllable clock, and keys created through the store.
 */
import type { Server } from 'node:http';
import { createHttpServer } from '../../src/http/http-server.js';
import type { AddressInfo } from 'node:net';
import supertest from 'supertest';
import { createService, type Role, type Service } from '../../src/app.js';
import { issueKey } from './keys.js';
import { loadConfig } from '../../src/config/config.js';
import { tracingRequested } from '../../src/telemetry/tracing.js';
import { createLogger } from '../../src/logging/logger.js';
import type { MarketDataPlan, PredictionPlan } from '../../src/domain/account.js';
import { createPgSchema, tempDataDir } from './engines.js';
import { missingGates } from './gates.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';
import fs from 'node:fs';

let distributed: Promise<boolean> | undefined;
/**
 * MGW_TEST_STACK=distributed: PostgreSQL and Redis, or a failure naming the one missing; never a
 * quiet second run on SQLite, which would pass for the distributed run it is not (gates.ts).
 */
function distributedStackWanted(): Promise<boolean> {
  if (process.env.MGW_TEST_STACK !== 'distributed') return Promise.resolve(false);
  distributed ??= (async () => {
    const missing = missingGates(['postgres', 'redis']);
    if (missing.length > 0) throw new Error(`MGW_TEST_STACK=distributed (npm run test:distributed) but missing: ${missing.join('; ')}`);
    return true;
  })();
  return distributed;
}

export class TestClock {
  value: number;

  constructor(value: number) {
    this.value = value;
  }

  now = () => this.value;
  advance(ms: number) {
    this.value += ms;
  }
}

/**
 * 20 s into a UTC minute: tests that count a minute's quota never straddle a boundary. Never in the
 * last 5 minutes of a UTC day either: a test that advances its clock a minute or two would see the
 * date change under it (a brief compared across a restart, a day's count), as one run at 23:59 did.
 */
export function midMinute(): number {
  const DAY_MS = 86_400_000;
  const minute = Math.floor(Date.now() / 60_000) * 60_000;
  const closeToMidnight = minute % DAY_MS >= DAY_MS - 5 * 60_000;
  return (closeToMidnight ? minute - 5 * 60_000 : minute) + 20_000;
}

/**
 * The current real second, for a clock whose deliveries a receiver verifies: Standard Webhooks
 * verifiers check `webhook-timestamp` against their own clock with 5 minutes' tolerance, which
 * `midMinute()`'s step back near midnight can exceed (CI at 23:55 UTC saw "Message timestamp too old").
 */
export const realSecond = (): number => Math.floor(Date.now() / 1000) * 1000;

export interface TestService {
  service: Service;
  clock: TestClock;
  dataDir: string;
  a: supertest.Agent;
  b: supertest.Agent;
  /** The listeners' base URLs, for real clients (`http://127.0.0.1:<port>`). */
  urls: { a: string; b: string };
  createKey(plan?: MarketDataPlan, predictionPlan?: PredictionPlan): Promise<{ key: string; keyId: string; accountId: string }>;
  close(options?: { keepData?: boolean }): Promise<void>;
}

export async function startTestService(
  options: {
    env?: Record<string, string>;
    clock?: TestClock;
    dataDir?: string;
    role?: Role;
    /** Receives every log line of the service's own logger (redaction included), at LOG_LEVEL. */
    logSink?: { write(line: string): void };
  } = {},
): Promise<TestService> {
  const dataDir = options.dataDir ?? tempDataDir();
  // MGW_TEST_STACK=distributed runs the same suites on PostgreSQL (a fresh schema) and Redis.
  const stack = !options.env?.DATABASE_URL && (await distributedStackWanted()) ? await createPgSchema() : undefined;
  const stackEnv = stack ? { DATABASE_URL: stack.url, REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0' } : {};
  const clock = options.clock ?? new TestClock(midMinute());
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    DEMO_TICK_MS: '3600000', // tests tick by hand
    REVOCATION_POLL_MS: '200',
    ...stackEnv,
    ...options.env,
  });
  const logger = options.logSink ? createLogger(config.logLevel, options.logSink, tracingRequested(config.otel)) : undefined;
  const service = await createService(config, { now: clock.now, role: options.role ?? 'all', ...(logger ? { logger } : {}) });
  await service.startBackground();
  // The listeners the service itself runs, limits and all.
  const servers: Server[] = [
    createHttpServer(service.marketDataApp, 'A').listen(0, '127.0.0.1'),
    createHttpServer(service.predictionApp, 'B').listen(0, '127.0.0.1'),
  ];
  await Promise.all(servers.map((s) => new Promise((r) => s.once('listening', r))));
  const url = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;

  return {
    service,
    clock,
    dataDir,
    a: supertest.agent(url(servers[0]!)),
    b: supertest.agent(url(servers[1]!)),
    urls: { a: url(servers[0]!), b: url(servers[1]!) },
    createKey: (plan = 'pro', predictionPlan = 'none') => issueKey(service.store, { plan, predictionPlan, now: clock.now() }),
    async close({ keepData = false } = {}) {
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((r) => {
              s.close(() => r());
              s.closeAllConnections();
            }),
        ),
      );
      await service.close();
      if (!keepData && !options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      if (!keepData) await stack?.drop();
    },
  };
}

export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

/** Closes what a test started, in the order given (the service before the upstream it polls), whatever is missing. */
export async function closeAll(...things: ({ close(): Promise<unknown> } | undefined)[]): Promise<void> {
  for (const thing of things) await thing?.close();
}

/**
 * A service whose webhooks may go to loopback (IPv4 and IPv6) over http, polled every 100 ms, on a
 * clock at the real second (receivers verify the timestamps), and one receiver for them.
 */
export async function startWithWebhookReceiver(): Promise<{ t: TestService; receiver: WebhookReceiver }> {
  const receiver = await startWebhookReceiver();
  const t = await startTestService({
    clock: new TestClock(realSecond()),
    env: { WEBHOOK_ALLOW_HTTP: '1', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128', WEBHOOK_POLL_MS: '100' },
  });
  return { t, receiver };
}
