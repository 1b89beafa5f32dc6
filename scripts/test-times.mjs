#!/usr/bin/env node
/**
 * The per-file timing table of a Jest run, as docs/development.md shows it: `npm run test:jest --
 * --json --outputFile=run.json` (or `node scripts/test-all.mjs --json --outputFile=run.json`), then
 * `node scripts/test-times.mjs run.json [N]`: the N costliest files (20 by default) with their
 * seconds (each file's start to end), tests, and the cumulative share of all file time, then the
 * totals by folder. A file of both Jest projects (the contract suites) is listed once per project,
 * in the order Jest reported them. `--write-costs` also writes each file's seconds (the longer of
 * its two projects) to test/file-costs.json, the order test/support/cost-sequencer.mjs starts files in.
 */
import fs from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const writeCosts = args.includes('--write-costs');
const [file, most = '20'] = args.filter((a) => a !== '--write-costs');
if (!file) {
  process.stderr.write('usage: node scripts/test-times.mjs <jest --json output> [how many files] [--write-costs]\n');
  process.exit(2);
}
const run = JSON.parse(fs.readFileSync(file, 'utf8'));
const root = process.cwd();
const seen = new Map();
const files = run.testResults.map((r) => {
  const name = path.relative(root, r.name);
  const count = (seen.get(name) ?? 0) + 1;
  seen.set(name, count);
  return { name: count > 1 ? `${name} (again, project ${count})` : name, seconds: (r.endTime - r.startTime) / 1000, tests: r.assertionResults.length };
});
const total = files.reduce((sum, f) => sum + f.seconds, 0);
/** The light runner stamps a file's start and end on its worker's own clock (from after the file's imports): no wall time from them. */
const lastEnd = Math.max(...run.testResults.map((r) => r.endTime));
const wall = lastEnd >= run.startTime ? `${((lastEnd - run.startTime) / 1000).toFixed(0)} s of wall time, ` : '';
process.stdout.write(`${files.length} files, ${run.numTotalTests} tests (${run.numFailedTests} failed), ${wall}${total.toFixed(0)} s of file time\n\n`);
process.stdout.write('| file | s | tests | cumulative |\n|---|---|---|---|\n');
let cumulative = 0;
for (const f of [...files].sort((a, b) => b.seconds - a.seconds).slice(0, Number(most))) {
  cumulative += f.seconds;
  process.stdout.write(`| \`${f.name}\` | ${f.seconds.toFixed(1)} | ${f.tests} | ${Math.round((100 * cumulative) / total)} % |\n`);
}
const byFolder = new Map();
for (const f of files) {
  const folder = f.name.split('/')[1] ?? f.name;
  byFolder.set(folder, (byFolder.get(folder) ?? 0) + f.seconds);
}
process.stdout.write(
  `\nby folder: ${[...byFolder]
    .sort((a, b) => b[1] - a[1])
    .map(([folder, s]) => `${folder} ${s.toFixed(0)} s`)
    .join(', ')}\n`,
);

if (writeCosts) {
  const costs = {};
  for (const r of run.testResults) {
    const name = path.relative(root, r.name);
    costs[name] = Math.max(costs[name] ?? 0, Math.round((r.endTime - r.startTime) / 100) / 10);
  }
  const sorted = Object.fromEntries(Object.entries(costs).sort(([a], [b]) => a.localeCompare(b)));
  fs.writeFileSync(path.join(root, 'test/file-costs.json'), `${JSON.stringify(sorted, null, 2)}\n`);
  process.stdout.write(`\nwrote test/file-costs.json (${Object.keys(sorted).length} files)\n`);
}
