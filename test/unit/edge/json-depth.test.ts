/** The bound on request JSON's nesting (src/edge/json-depth.ts): the text scan and the value walk agree with the parsed depth. */
import fc from 'fast-check';
import { jsonTextWithinDepth, MAX_JSON_DEPTH, valueWithinDepth } from '../../../src/edge/json-depth.js';

/** The depth of a parsed value, recursively (test values are shallow). */
const depthOf = (value: unknown): number => (typeof value === 'object' && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0);

it('the text scan and the value walk say what the parsed depth says, brackets inside strings and escapes included', () => {
  const tricky = fc.constantFrom('[', ']', '{', '}', '\\', '"', '\\"[', 'a\\\\"');
  const value = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      fc.oneof(fc.string(), tricky, fc.integer(), fc.constant(null)),
      fc.array(tie('node'), { maxLength: 3 }),
      fc.dictionary(fc.oneof(fc.string(), tricky), tie('node'), { maxKeys: 3 }),
    ),
  })).node;
  fc.assert(
    fc.property(value, fc.integer({ min: 0, max: 6 }), (v, max) => {
      const within = depthOf(v) <= max;
      expect(jsonTextWithinDepth(JSON.stringify(v), max)).toBe(within);
      expect(valueWithinDepth(v, max)).toBe(within);
    }),
  );
});

it(`${MAX_JSON_DEPTH} levels pass, one more does not, and 100 000 levels are judged without overflowing the stack`, () => {
  const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
  expect(jsonTextWithinDepth(nested(MAX_JSON_DEPTH))).toBe(true);
  expect(jsonTextWithinDepth(nested(MAX_JSON_DEPTH + 1))).toBe(false);
  expect(valueWithinDepth(JSON.parse(nested(MAX_JSON_DEPTH)))).toBe(true);
  expect(valueWithinDepth(JSON.parse(nested(MAX_JSON_DEPTH + 1)))).toBe(false);
  expect(jsonTextWithinDepth(nested(100_000))).toBe(false);
  expect(valueWithinDepth(JSON.parse(nested(100_000)))).toBe(false);
});
