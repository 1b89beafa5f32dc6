/** Jest in native ESM mode (trading-signals ships ESM only); swc transpiles without type checks
 * because `npm test` runs `tsc --noEmit` once before Jest. */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const rootDir = path.dirname(fileURLToPath(import.meta.url));

/**
 * Whole processes and injected faults (child services, kill -9, stopped databases, spawned CLIs):
 * the slow part. `npm test` (MGW_TEST_SCOPE=quick) leaves them out to answer in about a minute;
 * `npm run test:all`, which CI runs, includes them.
 */
const PROCESS_AND_FAULT_SUITES = [
  'durability',
  'postgres-faults',
  'postgres-failure',
  'redis-faults',
  'quota-day',
  'shutdown',
  'fuzz',
  'misconfiguration',
  'lifecycle',
  'cli',
  'shared-quota',
  'roles',
  'hung-leader',
  'subscription-shutdown',
].map((name) => `<rootDir>/test/integration/${name}\\.test\\.ts$`).concat(['<rootDir>/test/webhooks/processes\\.test\\.ts$']);

/**
 * MGW_TEST_SCOPE: `quick` (npm test) the local project without the suites above; unset (npm run
 * test:jest) the local project; `all` (npm run test:all, npm run test:distributed) also the
 * `distributed` project: the contract suites again on PostgreSQL and Redis, in the same Jest run
 * (so on the same workers, beside the rest, rather than a second run after it).
 */
const scope = process.env.MGW_TEST_SCOPE;

const common = {
  rootDir,
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, sourceMaps: 'inline' }],
  },
  // One module for both projects: Jest runs each once.
  // Stryker's sandboxes (npm run test:mutation) are copies of the repository: not modules of this one.
  modulePathIgnorePatterns: ['<rootDir>/.stryker-tmp/'],
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
};

const local = {
  ...common,
  displayName: 'local',
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', ...(scope === 'quick' ? PROCESS_AND_FAULT_SUITES : [])],
};

/** test/support/service.ts reads MGW_TEST_STACK=distributed, set in each file's environment by the setup file. */
const distributed = {
  ...common,
  displayName: 'distributed',
  testMatch: ['<rootDir>/test/contract/**/*.test.ts'],
  setupFiles: ['<rootDir>/test/support/distributed-stack.ts'],
};

/**
 * Workers: half as many again as the cores (3 on 2), 8 at most. A worker spends much of a file
 * waiting on a service, a child process, a lease or a fault's timer, when a core is free for another
 * file; past 8, the shared PostgreSQL's connections and the machine's memory run short first.
 * MGW_TEST_WORKERS sets another number.
 */
const workers = Number(process.env.MGW_TEST_WORKERS) || Math.min(8, Math.max(2, Math.round(os.availableParallelism() * 1.5)));

export default {
  projects: scope === 'all' ? [local, distributed] : [local],
  testTimeout: 30000,
  maxWorkers: workers,
  testSequencer: '<rootDir>/test/support/cost-sequencer.mjs',
};
