/**
 * npm 11 warns about every install script `allowScripts` does not decide, and CI refuses an install
 * that warns. The lockfile marks each package that has one, so a new dependency with a script
 * fails here, on the developer's machine, rather than thirty seconds into CI.
 */
import { readFileSync } from 'node:fs';

type LockEntry = { hasInstallScript?: boolean };

function read<T>(file: string): T {
  return JSON.parse(readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8')) as T;
}

function packagesWithInstallScripts(): string[] {
  const lock = read<{ packages: Record<string, LockEntry> }>('package-lock.json');
  const names = Object.entries(lock.packages)
    .filter(([, entry]) => entry.hasInstallScript)
    .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
  return [...new Set(names)].sort();
}

it('allowScripts decides every install script in the lockfile', () => {
  const { allowScripts } = read<{ allowScripts: Record<string, boolean> }>('package.json');
  const withScripts = packagesWithInstallScripts();
  expect(withScripts.length).toBeGreaterThan(0);
  expect(withScripts.filter((name) => !(name in allowScripts))).toEqual([]);
});
