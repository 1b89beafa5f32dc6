#!/usr/bin/env node
/**
 * Builds dist/ only when a source is newer than the last build: `npm start` and `npm run cli`
 * then start at once instead of waiting on every run. The build stamp is written after a
 * successful build, so an interrupted one is redone next time.
 *
 * The build transpiles each file of src/ with esbuild (under a second, where tsc took ten): the
 * sources are written for per-file transpilation (`isolatedModules`, `verbatimModuleSyntax`), and
 * the types are checked elsewhere, by `npm test`, `npm run test:all` and `npm run build`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'dist', '.build-stamp');
const inputs = ['src', 'schema', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

function newestMtime(target) {
  let stat;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted file changes its directory
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
const changed = Math.max(...inputs.map((input) => newestMtime(path.join(root, input))));
const forced = process.argv.includes('--force'); // `npm run build`
/** The bin runs by its shebang (npm start execs it): its flags are the service's V8 settings. */
function markBinExecutable() {
  const bin = path.join(root, 'dist', 'src', 'cli', 'main.js');
  if (fs.existsSync(bin)) fs.chmodSync(bin, 0o755);
}

if (!forced && built > 0 && changed <= built) {
  markBinExecutable(); // a dist/ built before the bin was executed directly
  process.exit(0);
}

if (!forced) process.stderr.write(built === 0 ? 'building dist/ (first run)...\n' : 'sources changed since the last build: rebuilding dist/...\n');
const startedAt = new Date();
const { build } = await import('esbuild');
const sources = fs.readdirSync(path.join(root, 'src'), { recursive: true }).filter((file) => file.endsWith('.ts'));
try {
  await build({
    absWorkingDir: root,
    entryPoints: sources.map((file) => path.join('src', file)),
    outbase: '.',
    outdir: 'dist',
    tsconfig: 'tsconfig.build.json',
    format: 'esm',
    platform: 'node',
    target: 'node24',
    sourcemap: true,
    logLevel: 'warning',
  });
} catch {
  // esbuild has printed each error with its place.
  process.stderr.write('error: the build failed (see above); dist/ was not updated\n');
  process.exit(1);
}
markBinExecutable();
// Stamped with the build's start: a file edited while it ran is rebuilt next time.
fs.writeFileSync(stamp, `${startedAt.toISOString()}\n`);
fs.utimesSync(stamp, startedAt, startedAt);
