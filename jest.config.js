/** Jest in native ESM mode (trading-signals ships ESM only); ts-jest transpiles without type checks
 * because `npm test` runs `tsc --noEmit` once before Jest. */

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

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, diagnostics: false }],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', ...(process.env.MGW_TEST_SCOPE === 'quick' ? PROCESS_AND_FAULT_SUITES : [])],
  // Stryker's sandboxes (npm run test:mutation) are copies of the repository: not modules of this one.
  modulePathIgnorePatterns: ['<rootDir>/.stryker-tmp/'],
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  testTimeout: 30000,
  maxWorkers: 2,
};
