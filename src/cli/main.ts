#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=16 --heap-growing-percent=35
/**
 * Entry point of the `market-gateway` bin. Exit codes: 0 success, 1 any error (usage or runtime).
 * The shebang sets V8's heap and glibc's malloc arenas (src/config/v8-heap.ts says why); `npm start` runs this file, not
 * `node` on it, so the flags apply.
 */
// First: ESM evaluates imports in order, so an unsupported Node is refused before better-sqlite3 loads.
import './supported-node.js';
import { reportError } from './errors.js';
import { buildProgram } from './program.js';

// A reader that stops early (`usage legacy | head`) closes the pipe: that ends the output, it is no failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

try {
  await buildProgram().parseAsync(process.argv);
} catch (error) {
  // exitCode rather than exit(): pending stdout/stderr writes still flush.
  process.exitCode = reportError(error);
}
