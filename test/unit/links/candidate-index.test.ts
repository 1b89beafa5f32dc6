/** The blocking index: candidates share a key, come from other venues, most keys shared first, bounded. */
import fc from 'fast-check';
import { CROWDED_KEY, createCandidateIndex } from '../../../src/links/candidate-index.js';

it('gives the markets of other venues that share a key, most keys shared first, ties by id', () => {
  const index = createCandidateIndex();
  index.put('k:1', 'k', ['btc|2026-05-10', 'btc']);
  index.put('k:2', 'k', ['btc|2026-05-10']); // same venue: never a candidate
  index.put('p:9', 'p', ['btc']);
  index.put('p:3', 'p', ['btc|2026-05-10', 'btc']);
  index.put('p:4', 'p', ['eth']);
  expect(index.candidates('k:1')).toEqual(['p:3', 'p:9']);
  expect(index.candidates('p:4')).toEqual([]);
  expect(index.candidates('unknown')).toEqual([]);
  expect(index.size).toBe(5);
});

it("replaces a market's keys when it is put again", () => {
  const index = createCandidateIndex();
  index.put('k:1', 'k', ['a']);
  index.put('p:1', 'p', ['a']);
  index.put('p:1', 'p', ['b']);
  expect(index.candidates('k:1')).toEqual([]);
  expect(index.size).toBe(2);
});

it('skips crowded keys and bounds the candidates', () => {
  const index = createCandidateIndex({ maxCandidates: 3 });
  index.put('k:1', 'k', ['crowded', 'rare']);
  for (let i = 0; i <= CROWDED_KEY; i++) index.put(`p:${i}`, 'p', ['crowded']);
  expect(index.candidates('k:1')).toEqual([]);
  for (let i = 0; i < 10; i++) index.put(`m:${i}`, 'm', ['rare']);
  expect(index.candidates('k:1')).toEqual(['m:0', 'm:1', 'm:2']);
});

it('is symmetric: a is a candidate of b exactly when b is of a (unbounded)', () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ venue: fc.constantFrom('k', 'p', 'm'), keys: fc.array(fc.constantFrom('x', 'y', 'z'), { maxLength: 3 }) }), { maxLength: 12 }),
      (markets) => {
        const index = createCandidateIndex({ maxCandidates: 100 });
        for (const [i, m] of markets.entries()) index.put(`${m.venue}:${i}`, m.venue, m.keys);
        for (const [i, m] of markets.entries()) {
          for (const other of index.candidates(`${m.venue}:${i}`)) expect(index.candidates(other)).toContain(`${m.venue}:${i}`);
        }
      },
    ),
  );
});
