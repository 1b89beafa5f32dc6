#!/usr/bin/env node
/**
 * The whole suite (`npm run test:all`) on a machine kept busy: one CPU-burning process per core
 * runs beside it, as on a loaded CI runner. Afterwards it checks that the run left nothing behind
 * (a service child, a CLI, a redis-server or postgres a test started, the run's Chromium) and says
 * how long it took. Exit code: the suite's, or 1 when something was left running.
 *
 * What the run started is told from what others run on the same machine (another checkout's tests,
 * the machine's own PostgreSQL and its backends) by a mark in the environment, MGW_TEST_RUN, which
 * every child of the suite inherits (npm, Jest, its workers, the launcher's children, runuser's
 * postgres, playwright's Chromium). A process whose environment cannot be read is counted.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

const LEFTOVER = /dist\/src\/cli\/main\.js|src\/cli\/main\.ts|redis-server|postgres -D|postgres: |chrom(e|ium)/;
const MARK = `MGW_TEST_RUN=busy-${process.pid}-${Date.now()}`;

/** Whether the process carries this run's mark; unreadable (gone, or not ours to read) counts as marked. */
function marked(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(MARK);
  } catch (error) {
    return error.code !== 'ENOENT' && error.code !== 'ESRCH';
  }
}

function processes() {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return new Map(
    out
      .split('\n')
      .map((line) => line.trim().match(/^(\d+)\s+(.*)$/))
      .filter(Boolean)
      .map(([, pid, args]) => [Number(pid), args]),
  );
}

const before = processes();
const cores = os.availableParallelism();
const burners = Array.from({ length: cores }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
process.stderr.write(`test:busy: ${cores} CPU burners running beside npm run test:all\n`);

const started = Date.now();
const [markName, markValue] = MARK.split('=');
const suite = spawn('npm', ['run', 'test:all'], { stdio: 'inherit', env: { ...process.env, [markName]: markValue } });
const code = await new Promise((resolve) => suite.once('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
for (const burner of burners) burner.kill('SIGKILL');
const minutes = ((Date.now() - started) / 60_000).toFixed(1);

// A process stopped by its test may take a moment to go: look twice.
await new Promise((r) => setTimeout(r, 3_000));
const left = [...processes()].filter(([pid, args]) => !before.has(pid) && LEFTOVER.test(args) && marked(pid));
process.stderr.write(`test:busy: suite exit ${code} after ${minutes} min with ${cores} cores busy\n`);
if (left.length > 0) {
  process.stderr.write(`test:busy: left running after the suite:\n${left.map(([pid, args]) => `  ${pid} ${args}`).join('\n')}\n`);
  process.exit(1);
}
process.stderr.write('test:busy: nothing left running\n');
process.exit(code);
