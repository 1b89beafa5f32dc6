/**
 * Jest's global setup: the tests that run the service or the CLI as a child process run the built
 * code, as `npm start` does, so dist/ is brought up to date once here (a no-op when it is fresh).
 * It also says once what a public clone skips, rather than once per suite with a code frame.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export default function globalSetup() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const shared = path.resolve(root, '../shared/fixtures/upstream');
  if (!fs.existsSync(shared)) {
    process.stderr.write(
      `SKIPPING the tests on whole upstream recordings: ${shared} is absent (CI has it beside the clone; the trimmed excerpts in test/fixtures/recorded still run).\n`,
    );
  }
  const result = spawnSync(process.execPath, [path.join(root, 'scripts/build-if-stale.mjs')], { stdio: 'inherit', cwd: root });
  if (result.status !== 0) throw new Error('the build for the child-process tests failed (see above)');
}
