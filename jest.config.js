/** Jest in native ESM mode (trading-signals ships ESM only); ts-jest transpiles without type checks
 * because `npm test` runs `tsc --noEmit` once before Jest. */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, diagnostics: false }],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  testTimeout: 30000,
  maxWorkers: 2,
};
