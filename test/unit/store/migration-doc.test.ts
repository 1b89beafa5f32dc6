/**
 * docs/migration.md's table of REST routes and their GraphQL operations is the route tables' own:
 * this test writes the table from them and fails when the document's copy differs (paste the
 * expected table it prints).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { OperationDefinitionNode } from 'graphql';
import { routeIdOf } from '../../../src/rest/route-table.js';
import { operationHrefOf } from '../../../src/rest/operation-documents.js';
import { ROUTES_OF } from '../../../src/rest/routes/by-variant.js';

const DOC = path.resolve(import.meta.dirname, '../../../docs/migration.md');

function expectedTable(): string {
  const rows = (['A', 'B'] as const).flatMap((variant) =>
    ROUTES_OF[variant].map((route) => {
      const operation = route.operation.definitions.find((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition')!;
      const name = operation.name!.value;
      const variables = operation.variableDefinitions?.map((v) => `\`$${v.variable.name.value}\``).join(', ') || 'none';
      return `| \`${routeIdOf(variant, route.path)}\` | \`${name}\` | [\`${operationHrefOf(name)}\`](#fetching-a-document) | ${variables} |`;
    }),
  );
  return ['| route id | GraphQL operation | served at | variables |', '|---|---|---|---|', ...rows].join('\n');
}

it("docs/migration.md's table lists every route of both variants with the operation it runs", () => {
  const doc = fs.readFileSync(DOC, 'utf8');
  const table = /<!-- routes:start -->\n([\s\S]*?)\n<!-- routes:end -->/.exec(doc)?.[1];
  const expected = expectedTable();
  if (table !== expected) console.log(`docs/migration.md's table should be:\n${expected}`);
  expect(table).toBe(expected);
});
