/**
 * Lists the hand-written functions of a tree with their length in lines, longest first, and says
 * how many are 80 lines or more. Read with the TypeScript compiler's parser, not by pattern:
 *   node bench/function-sizes.mjs [--min N] [--all] [folder or file ...]   (default: src)
 *
 * A function is a declaration, a function expression, an arrow function, a method, an accessor or
 * a constructor. Its length is the lines from its first token (the `function` keyword, the
 * method's name, the arrow's parameters; not the comment above it) to its last, both counted.
 * A function inside another counts on its own and inside the outer one too, so a factory is as
 * long as everything it holds. Generated code (`src/graphql/generated`, `src/rest/generated`,
 * written by `npm run codegen`) and declaration files are left out.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const args = process.argv.slice(2);
let min = 80;
let all = false;
const roots = [];
for (let i = 0; i < args.length; i += 1) {
  const arg = args[i];
  if (arg === '--min') min = Number(args[++i]);
  else if (arg === '--all') all = true;
  else roots.push(arg);
}
if (!Number.isInteger(min) || min < 1) {
  console.error('usage: node bench/function-sizes.mjs [--min N] [--all] [folder or file ...]');
  process.exit(2);
}
if (roots.length === 0) roots.push('src');

const generated = (file) => file.split(path.sep).includes('generated') || file.endsWith('.d.ts');

function sourceFiles(root) {
  const stat = fs.statSync(root);
  if (stat.isFile()) return root.endsWith('.ts') && !generated(root) ? [root] : [];
  return fs
    .readdirSync(root, { withFileTypes: true })
    .flatMap((entry) => sourceFiles(path.join(root, entry.name)))
    .sort();
}

/** The name a reader would look for: the declared name, or the variable, property or call it is given to. */
function nameOf(node, file) {
  if (node.name && !ts.isComputedPropertyName(node.name)) return node.name.getText(file);
  if (ts.isConstructorDeclaration(node)) return `${nameOf(node.parent, file)}.constructor`;
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText(file);
  if (ts.isCallExpression(parent)) return `(argument of ${parent.expression.getText(file).slice(0, 40)})`;
  if (ts.isExportAssignment(parent)) return 'default';
  return '(anonymous)';
}

const isFunction = (node) =>
  ts.isFunctionDeclaration(node) ||
  ts.isFunctionExpression(node) ||
  ts.isArrowFunction(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node) ||
  ts.isConstructorDeclaration(node);

const functions = [];
for (const root of roots) {
  for (const fileName of sourceFiles(root)) {
    const file = ts.createSourceFile(fileName, fs.readFileSync(fileName, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (isFunction(node) && node.body) {
        const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
        const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
        functions.push({ lines: last - first + 1, where: `${fileName}:${first + 1}`, name: nameOf(node, file) });
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
}

functions.sort((a, b) => b.lines - a.lines || a.where.localeCompare(b.where));
const long = functions.filter((f) => f.lines >= min);
for (const f of all ? functions : long) console.log(`${String(f.lines).padStart(5)}  ${f.name}  ${f.where}`);
console.log(`${long.length} of ${functions.length} functions are ${min} lines or more (${roots.join(', ')})`);
