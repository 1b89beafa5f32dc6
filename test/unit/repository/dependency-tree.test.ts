/**
 * graphql-rate-limit 3.3 asks for @graphql-tools/utils 7, which wants graphql 14 or 15; package.json's
 * `overrides` gives it the copy the schema uses. This holds the override in place: if it went, npm
 * would install a second, older copy beside ours (and `npm ls --all` would fail again). That the
 * field limits still count under it is shown by graphql-field-limits.test.ts.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

it("graphql-rate-limit resolves the project's own @graphql-tools/utils and graphql", () => {
  const fromRateLimit = createRequire(require.resolve('graphql-rate-limit'));
  expect(fromRateLimit.resolve('@graphql-tools/utils')).toBe(require.resolve('@graphql-tools/utils'));
  expect(fromRateLimit.resolve('graphql')).toBe(require.resolve('graphql'));
});
