/** The fast path's compiler: one compilation per query text, a bounded cache, Apollo's cases left to Apollo. */
import { createOperationCompiler } from '../../src/graphql-http/compiled-operations.js';
import { createSchema } from '../../src/graphql/schema.js';

const schema = createSchema();

it('compiles a query once and hands back the same compiled operation', () => {
  const compiler = createOperationCompiler(schema);
  const text = '{ predictionMarkets { count } }';
  const first = compiler.get(text, undefined)!;
  expect(first.analysis.requirements).toEqual({ prediction: 'PRO' });
  expect(compiler.get(text, undefined)).toBe(first);
  // The operation name is part of the key: the same text under another name is another entry.
  const named = 'query A { viewer { name } } query B { viewer { accountId } }';
  expect(compiler.get(named, 'A')).not.toBe(compiler.get(named, 'B'));
});

it('leaves to Apollo what it owns: mutations, introspection, invalid texts, an ambiguous operation', () => {
  const compiler = createOperationCompiler(schema);
  expect(compiler.get('mutation { _noop }', undefined)).toBeUndefined();
  expect(compiler.get('{ __schema { queryType { name } } }', undefined)).toBeUndefined();
  expect(compiler.get('{ viewer { accountId } __type(name: "Query") { name } }', undefined)).toBeUndefined();
  expect(compiler.get('{ predictionMarkets { nope } }', undefined)).toBeUndefined();
  expect(compiler.get('{ predictionMarkets {', undefined)).toBeUndefined();
  expect(compiler.get('query A { viewer { name } } query B { viewer { accountId } }', undefined)).toBeUndefined();
  expect(compiler.get('query A { viewer { name } } query B { viewer { accountId } }', 'B')).toBeDefined();
});

it('keeps at most maxEntries texts, least recently used dropped first', () => {
  const compiler = createOperationCompiler(schema, { maxEntries: 2 });
  const [a, b, c] = [1, 2, 3].map((n) => `{ predictionMarkets(limit: ${n}) { count } }`) as [string, string, string];
  const firstA = compiler.get(a, undefined);
  const firstB = compiler.get(b, undefined);
  expect(compiler.get(a, undefined)).toBe(firstA); // a used again: b is now the oldest
  const firstC = compiler.get(c, undefined); // the third text: b is dropped
  expect(compiler.get(a, undefined)).toBe(firstA);
  expect(compiler.get(c, undefined)).toBe(firstC);
  const secondB = compiler.get(b, undefined); // compiled again
  expect(secondB).toBeDefined();
  expect(secondB).not.toBe(firstB);
});

it('is bounded by the size of the texts too: a text larger than the whole budget is compiled but not kept', () => {
  const compiler = createOperationCompiler(schema, { maxCharacters: 5_000 });
  const big = `{ ${Array.from({ length: 150 }, (_, i) => `m${i}: viewer { name }`).join(' ')} }`;
  expect(big.length).toBeGreaterThan(3_000);
  const once = compiler.get(big, undefined);
  expect(once).toBeDefined();
  expect(compiler.get(big, undefined)).not.toBe(once);
  const small = '{ viewer { name } }';
  expect(compiler.get(small, undefined)).toBe(compiler.get(small, undefined));
});
