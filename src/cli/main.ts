#!/usr/bin/env -S node --max-semi-space-size=16
/**
 * Entry point of the `market-gateway` bin. Exit codes: 0 success, 1 any error (usage or runtime).
 * The shebang caps V8's young generation (src/config/young-generation.ts says why); `npm start` runs
 * this file, not `node` on it, so the flag applies.
 */
// First: ESM evaluates imports in order, so an unsupported Node is refused before better-sqlite3 loads.
import './supported-node.js';
import { reportError } from './errors.js';
import { buildProgram } from './program.js';

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  // exitCode rather than exit(): pending stdout/stderr writes still flush.
  process.exitCode = reportError(error);
}
