/**
 * Mutation testing (StrykerJS) of the code that guards security and money: admission, quotas, key
 * authentication, the webhooks' destination policy and signatures, the dashboard's cross-site and
 * form-token checks and its sign-in throttle. `npm run test:mutation` runs it (not part of
 * test:all); one module alone: `npm run test:mutation -- --mutate src/quota/quota-service.ts`.
 * How to read the result, and the survivors judged equivalent: docs/development.md.
 */
import net from 'node:net';
import base from '../jest.config.js';
import { MODULES } from './mutation-modules.mjs';

/**
 * The unit tests that exercise those files: fast, in process, no service started (SQLite in a
 * temporary folder). Stryker runs, per mutant, only the tests that covered it.
 */
const TESTS = [
  'edge',
  'admission',
  'admission-attributes',
  'plans',
  'plan-requirements',
  'quota-service',
  'counters',
  'minute-counter',
  'plan-limits',
  'api-key',
  'authenticator',
  'authenticator-cache',
  'webhook-destination',
  'webhook-signing',
  'cross-site',
  'secrets',
  'sign-in-throttle',
];

/**
 * Jest's global setup is left out (it builds dist/ and probes every gate, once per run, and Stryker
 * runs Jest once per mutant), so the one service verdict these tests read is made here: the
 * throttle's Redis test is skipped, as elsewhere, where Redis does not answer.
 */
function reachable(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host, timeout: 1_000 });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}
const redisUrl = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0');
if (!process.env.MGW_TEST_NO_REDIS && !(await reachable(Number(redisUrl.port || 6379), redisUrl.hostname))) {
  process.env.MGW_TEST_NO_REDIS = `${redisUrl.origin} unreachable (probed by scripts/stryker.config.mjs)`;
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'jest',
  testRunnerNodeArgs: ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning'],
  coverageAnalysis: 'perTest',
  mutate: Object.values(MODULES).flat(),
  jest: {
    projectType: 'custom',
    config: {
      ...base,
      // Jest's default runner: Stryker's per-test coverage needs Jest's own test environment.
      projects: base.projects.map(({ runner, setupFilesAfterEnv, ...project }) => project),
      globalSetup: undefined,
      testMatch: TESTS.map((name) => `<rootDir>/test/unit/**/${name}.test.ts`),
      testPathIgnorePatterns: ['/node_modules/'],
      maxWorkers: 1,
    },
    enableFindRelatedTests: true,
  },
  concurrency: 2,
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  appendPlugins: ['./scripts/mutation-modules.mjs'],
  reporters: ['clear-text', 'progress', 'html', 'json', 'module-summary'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  ignorePatterns: ['dist', 'data', 'coverage', 'bench-results', 'reports'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  timeoutMS: 10_000,
  thresholds: { high: 90, low: 85, break: null },
};
