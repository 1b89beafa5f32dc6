/**
 * The open-file limit at start: a process started with a low soft limit (as a shell with
 * `ulimit -n 512` would start it) runs with the hard one, which node sets when it starts, and the
 * service reads it to size its connection caps. Run in a child, on the built code.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../../support/cli.js';
import { gated } from '../../support/gates.js';

gated('prlimit')('a soft limit below the hard one is raised to it before the service reads it', () => {
  const hard = execFileSync('prlimit', ['--pid', String(process.pid), '--nofile', '--output=HARD', '--noheadings'], { encoding: 'utf8' }).trim();
  const module = path.join(REPO_ROOT, 'dist/src/http/open-files.js');
  const script = `import('${module}').then((m) => console.log(JSON.stringify(m.openFileLimit())))`;
  const out = execFileSync('prlimit', [`--nofile=512:${hard}`, process.execPath, '-e', script], { encoding: 'utf8', timeout: 30_000 });
  const limit = JSON.parse(out) as { soft: number | null; hard: number | null };
  // JSON turns Infinity into null: an unlimited hard limit reads as null on both.
  expect(limit.soft).toBe(limit.hard);
  if (hard !== 'unlimited') expect(limit.hard).toBe(Number(hard));
});
