#!/usr/bin/env node
/**
 * Jest with the clock of every process of the run moved to a UTC time of day: `node
 * scripts/test-at.mjs 23:59:50 [jest arguments]` starts the run at 23:59:50 UTC today, so that it
 * crosses midnight as a run started then would (a date read once and compared later, a day quota
 * counted across a restart). libfaketime (`apt-get install faketime`) shifts the clock by one
 * offset, which every child inherits with LD_PRELOAD (the services and CLIs the tests start), so
 * they agree with each other; PostgreSQL and Redis keep the real time, which the product never reads
 * (it passes its own `now`), and so do the Redis servers the tests start and the run's Chromium, whose
 * CPU throttling reads the thread's CPU clock, which libfaketime would shift too.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';

const [at, ...jestArgs] = process.argv.slice(2);
const time = /^(\d{2}):(\d{2}):(\d{2})$/.exec(at ?? '');
if (!time) {
  process.stderr.write('usage: node scripts/test-at.mjs HH:MM:SS [jest arguments]  (a UTC time of day today)\n');
  process.exit(2);
}
const LIBRARY = [
  '/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1',
  '/usr/lib/aarch64-linux-gnu/faketime/libfaketimeMT.so.1',
  '/usr/lib/faketime/libfaketimeMT.so.1',
].find((p) => fs.existsSync(p));
if (!LIBRARY) {
  process.stderr.write('libfaketime is not installed (apt-get install faketime)\n');
  process.exit(2);
}
const now = new Date();
const target = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), Number(time[1]), Number(time[2]), Number(time[3]));
const offsetSeconds = Math.round((target - now.getTime()) / 1000);
process.stderr.write(`test-at: the run's clock starts at ${new Date(target).toISOString()} (offset ${offsetSeconds} s)\n`);
const run = spawn('npm', ['run', '--silent', 'test:jest', '--', ...jestArgs], {
  stdio: 'inherit',
  env: { ...process.env, LD_PRELOAD: LIBRARY, FAKETIME: `${offsetSeconds >= 0 ? '+' : ''}${offsetSeconds}s` },
});
run.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
