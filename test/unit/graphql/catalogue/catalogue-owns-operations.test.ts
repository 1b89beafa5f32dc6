/**
 * The catalogue (src/graphql/catalogue) is the only place that parses, validates, chooses or
 * compiles an operation, and the only one that builds a request context: no other source file
 * imports graphql-js's functions for that, graphql-jit, or the per-request DataLoaders.
 */
import fs from 'node:fs';
import path from 'node:path';

const SRC = path.resolve(import.meta.dirname, '../../../../src');
const CATALOGUE = path.join(SRC, 'graphql/catalogue');
/** Inside the catalogue, one file prepares; the others ask it (the catalogue compiles nothing itself but coerces variables). */
const PREPARES = [path.join(CATALOGUE, 'prepare.ts'), path.join(CATALOGUE, 'catalogue.ts')];
const OWNED = ['parse', 'validate', 'specifiedRules', 'getOperationAST', 'getVariableValues', 'compileQuery', 'execute', 'subscribe', 'createLoaders', '*']; // '*': a namespace import reaches them all

/** graphql-js, by its main entry or any of its subpaths. */
const GRAPHQL = /^graphql(\/|$)/;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/**
 * The names each import statement of `text` brings from `module` (any of its specifiers); a
 * namespace or default import counts as `*`, since it reaches every name.
 */
function importedNames(text: string, modules: RegExp): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(/import\s+(?:type\s+)?(?:\*\s+as\s+\w+|\w+)\s+from\s+'([^']+)'/g)) {
    if (modules.test(match[1]!)) names.push('*');
  }
  for (const match of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g)) {
    if (!modules.test(match[2]!)) continue;
    for (const spec of match[1]!.split(',')) {
      const name = spec
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0]!;
      if (name) names.push(name);
    }
  }
  return names;
}

it('finds the imports it looks for (the check can fail)', () => {
  expect(importedNames("import {\n  type DocumentNode,\n  parse as p,\n} from 'graphql';", /^graphql$/)).toEqual(['DocumentNode', 'parse']);
  expect(importedNames("import { createLoaders } from '../../../graphql/loaders.js';", /loaders\.js$/)).toEqual(['createLoaders']);
  expect(importedNames("import * as g from 'graphql/execution';\nimport { execute } from 'graphql/execution/execute.js';", GRAPHQL)).toEqual(['*', 'execute']);
});

it('no file outside the catalogue (its prepare.ts and catalogue.ts) parses, validates, compiles or builds a context', () => {
  const offenders: string[] = [];
  for (const file of sourceFiles(SRC)) {
    if (PREPARES.includes(file) || file.endsWith(path.join('graphql', 'loaders.ts'))) continue;
    const text = fs.readFileSync(file, 'utf8');
    if (/from 'graphql-jit'/.test(text)) offenders.push(`${path.relative(SRC, file)}: graphql-jit`);
    for (const name of importedNames(text, new RegExp(`${GRAPHQL.source}|loaders\\.js$`))) {
      if (OWNED.includes(name)) offenders.push(`${path.relative(SRC, file)}: ${name}`);
    }
  }
  expect(offenders).toEqual([]);
});
