/**
 * Jest runs the test files as Node's own ES modules (jest-light-runner, one child process per
 * worker): a worker loads node_modules and src/ once, where Jest's default runner evaluated them again
 * in a fresh vm context for every file (about a third of the workers' CPU). Node strips the types
 * itself (tsconfig's `erasableSyntaxOnly` keeps the sources within what it strips);
 * test/support/ts-resolve.mjs maps the sources' `.js` imports to their `.ts` files. `npm test` runs
 * `tsc --noEmit` once before Jest.
 *
 * What the light runner does not isolate: a module's state lives as long as the worker, across the
 * files it runs (a support module that keeps some resets it for each file, with afterEachFile), and
 * it gives no test a timeout of its own (test/support/test-timeouts.ts does). It offers no
 * `import { jest } from '@jest/globals'`: spies come from `jest-mock`, fake clocks from
 * `@sinonjs/fake-timers`, as the tests import them.
 */
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
 * (beside the rest, within the same number of files at once, rather than a second run after it;
 * each project has worker processes of its own).
 */
const scope = process.env.MGW_TEST_SCOPE;

/**
 * Jest's default runner, for StrykerJS (scripts/stryker.config.mjs), whose per-test coverage needs
 * Jest's own test environment: the files are transpiled by swc and evaluated in vm contexts.
 */
const VM_RUNNER = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, sourceMaps: 'inline' }],
  },
};

const common = {
  rootDir,
  ...VM_RUNNER,
  runner: 'jest-light-runner/child-process',
  setupFilesAfterEnv: ['<rootDir>/test/support/test-timeouts.ts'],
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
 * MGW_TEST_WORKERS sets another number, 2 at least: with one (as with `-i`, `--runInBand`), the light
 * runner runs the files in Jest's own process, which this suite does not support.
 */
const workers = Math.max(2, Number(process.env.MGW_TEST_WORKERS) || Math.min(8, Math.round(os.availableParallelism() * 1.5)));

export default {
  projects: scope === 'all' ? [local, distributed] : [local],
  testTimeout: 30000, // Jest's default runner (Stryker's); test-timeouts.ts gives the light runner the same
  maxWorkers: workers,
  testSequencer: '<rootDir>/test/support/cost-sequencer.mjs',
};
