/**
 * Jest's global setup: the tests that run the service or the CLI as a child process run the built
 * code, as `npm start` does, so dist/ is brought up to date once here (a no-op when it is fresh).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export default function buildIfStale() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const result = spawnSync(process.execPath, [path.join(root, 'scripts/build-if-stale.mjs')], { stdio: 'inherit', cwd: root });
  if (result.status !== 0) throw new Error('the build for the child-process tests failed (see above)');
}
