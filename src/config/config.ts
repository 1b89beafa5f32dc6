/** Configuration from the environment, validated once at start (a bad value stops start-up with a clear message). */
import path from 'node:path';
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65_535);

const EnvSchema = z.object({
  HOST: z.string().min(1).default('127.0.0.1'),
  MARKET_DATA_PORT: port.default(4000),
  PREDICTION_PORT: port.default(4001),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().url().optional(),
  FEEDS: z.string().default('demo'),
  DEMO_SEED: z.coerce.number().int().default(42),
  DEMO_TICK_MS: z.coerce.number().int().min(50).default(2_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.string().optional(),
  /** How often running servers look for revoked keys; D2 bounds the delay at 2 s. */
  REVOCATION_POLL_MS: z.coerce.number().int().min(50).max(1_500).default(500),
});

export interface Config {
  host: string;
  marketDataPort: number;
  predictionPort: number;
  dataDir: string;
  databaseUrl: string | undefined;
  feeds: string[];
  demoSeed: number;
  demoTickMs: number;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  production: boolean;
  revocationPollMs: number;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  return {
    host: e.HOST,
    marketDataPort: e.MARKET_DATA_PORT,
    predictionPort: e.PREDICTION_PORT,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    feeds: e.FEEDS.split(',').map((f) => f.trim().toLowerCase()).filter(Boolean),
    demoSeed: e.DEMO_SEED,
    demoTickMs: e.DEMO_TICK_MS,
    logLevel: e.LOG_LEVEL,
    production: e.NODE_ENV === 'production',
    revocationPollMs: e.REVOCATION_POLL_MS,
  };
}
