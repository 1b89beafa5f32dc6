#!/usr/bin/env node
/**
 * `npm run test:all`, what CI runs: the static checks (codegen, types, lint, layers) beside the Jest
 * run instead of before it (Jest's workers spend much of their time waiting on services and
 * processes, so the checks mostly fill idle time). The one Jest run (MGW_TEST_SCOPE=all) holds both
 * projects of jest.config.js: every suite, and the contract suites again on PostgreSQL and Redis.
 * Jest's output streams as it comes; each check's is shown once it ends, failed ones in full. Exits
 * non-zero naming every step that failed. Arguments go to Jest (`node scripts/test-all.mjs
 * test/contract` runs the checks and the contract suites on both stacks only).
 */
import { spawn } from 'node:child_process';

const CHECKS = ['codegen:check', 'typecheck', 'lint', 'depcheck'];
const JEST_ARGS = process.argv.slice(2);

/** Runs `npm run <script> -- <args>`; `quiet` keeps its output until it ends. */
function run(script, quiet, args = [], env = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', ['run', '--silent', script, ...(args.length > 0 ? ['--', ...args] : [])], {
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, ...env },
    });
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    child.on('exit', (code, signal) => resolve({ script, ok: code === 0, code: code ?? signal, output, seconds: (Date.now() - started) / 1000 }));
    child.on('error', (error) => resolve({ script, ok: false, code: error.message, output, seconds: 0 }));
  });
}

const checks = Promise.all(
  CHECKS.map(async (script) => {
    const result = await run(script, true);
    process.stdout.write(`\n[test:all] ${script}: ${result.ok ? 'ok' : `FAILED (${result.code})`} in ${result.seconds.toFixed(1)} s\n`);
    if (!result.ok) process.stdout.write(result.output);
    return result;
  }),
);
const jest = await run('test:jest', false, JEST_ARGS, { MGW_TEST_SCOPE: 'all' });
const results = [...(await checks), jest];
const failed = results.filter((r) => !r.ok);
process.stdout.write(
  failed.length === 0
    ? `\n[test:all] passed: ${results.map((r) => `${r.script} ${r.seconds.toFixed(0)} s`).join(', ')}\n`
    : `\n[test:all] FAILED: ${failed.map((r) => r.script).join(', ')}\n`,
);
process.exitCode = failed.length === 0 ? 0 : 1;
