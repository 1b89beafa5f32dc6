/**
 * Comments in the code cite the product's decisions by number ("D3"); each must be defined in the
 * repository (docs/api-decisions.md), not only in a document a maintainer may not have.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../..');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

it('every decision the source cites has its section in docs/api-decisions.md', () => {
  const cited = new Set<string>();
  for (const file of sources(path.join(ROOT, 'src'))) {
    for (const [, number] of fs.readFileSync(file, 'utf8').matchAll(/\bD(\d{1,2})\b/g)) cited.add(number!);
  }
  expect(cited.size).toBeGreaterThan(0);
  const doc = fs.readFileSync(path.join(ROOT, 'docs/api-decisions.md'), 'utf8');
  const defined = new Set([...doc.matchAll(/^### D(\d{1,2})\. /gm)].map(([, number]) => number));
  expect([...cited].filter((number) => !defined.has(number)).map((n) => `D${n}`)).toEqual([]);
});
