/** Prediction events: cliques of SAME/INVERSE links, YES sides consistent, consensus and spread with inverse members flipped. */
import fc from 'fast-check';
import { type EventLink, type EventMarket, groupEvents } from '../../../src/links/events.js';

const market = (id: string, prob: number, volume24h: number): EventMarket => ({
  id,
  source: id.split(':')[0]!,
  question: `question of ${id}`,
  prob,
  volume24h,
});

it('groups a same and an inverse market with the busiest first, consensus weighted by volume, spread between venues', () => {
  const markets = new Map([market('k:1', 0.6, 300), market('p:1', 0.5, 100), market('m:1', 0.45, 0)].map((m) => [m.id, m]));
  const links: EventLink[] = [
    { a: 'k:1', b: 'p:1', relation: 'same' },
    { a: 'k:1', b: 'm:1', relation: 'inverse' },
    { a: 'p:1', b: 'm:1', relation: 'inverse' },
  ];
  const [event, ...rest] = groupEvents(links, (id) => markets.get(id));
  expect(rest).toEqual([]);
  expect(event!.members.map((m) => [m.market.id, m.flipped])).toEqual([
    ['k:1', false],
    ['p:1', false],
    ['m:1', true],
  ]);
  // (0.6 * 300 + 0.5 * 100 + 0.55 * 0) / 400
  expect(event!.consensus).toBe(0.575);
  // YES of k:1 read on each: 0.6, 0.5, 1 - 0.45 = 0.55
  expect(event!.spreadPts).toBe(10);
  expect(event).toMatchObject({ question: 'question of k:1', volume24h: 400, venues: 3 });
  expect(event!.id).toMatch(/^evt_[\w-]{16}$/);
});

it('keeps out a market not linked to every member, and one whose YES sides disagree', () => {
  const markets = new Map([market('k:1', 0.5, 30), market('p:1', 0.5, 20), market('m:1', 0.5, 10), market('x:1', 0.5, 5)].map((m) => [m.id, m]));
  const links: EventLink[] = [
    { a: 'k:1', b: 'p:1', relation: 'same' },
    { a: 'k:1', b: 'm:1', relation: 'same' }, // m:1 is not linked to p:1: not in k:1's group
    { a: 'k:1', b: 'x:1', relation: 'same' },
    { a: 'p:1', b: 'x:1', relation: 'inverse' }, // same as k:1 but inverse of p:1, which is same as k:1: inconsistent
  ];
  const events = groupEvents(links, (id) => markets.get(id));
  expect(events.map((e) => e.members.map((m) => m.market.id))).toEqual([['k:1', 'p:1']]);
});

it('leaves out markets the caller does not know (inactive), and groups of one', () => {
  const markets = new Map([market('k:1', 0.5, 30)].map((m) => [m.id, m]));
  expect(groupEvents([{ a: 'k:1', b: 'p:1', relation: 'same' }], (id) => markets.get(id))).toEqual([]);
});

it('puts every market in one group at most, each group a clique with consistent sides, the id independent of order', () => {
  const ids = ['a:1', 'b:1', 'c:1', 'd:1', 'e:1'];
  fc.assert(
    fc.property(
      fc.array(fc.record({ a: fc.constantFrom(...ids), b: fc.constantFrom(...ids), relation: fc.constantFrom('same' as const, 'inverse' as const) }), {
        maxLength: 12,
      }),
      fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 5, maxLength: 5 }),
      (drawn, volumes) => {
        // The store holds one row per pair: the first drawn for a pair stands.
        const pairs = new Set<string>();
        const links = drawn.filter((l) => {
          const key = [l.a, l.b].sort().join('|');
          return !pairs.has(key) && pairs.add(key);
        });
        const markets = new Map(ids.map((id, i) => [id, market(id, (i + 1) / 10, volumes[i]!)]));
        const events = groupEvents(links, (id) => markets.get(id));
        const seen = events.flatMap((e) => e.members.map((m) => m.market.id));
        expect(new Set(seen).size).toBe(seen.length);
        for (const e of events) {
          for (const x of e.members)
            for (const y of e.members) {
              if (x === y) continue;
              const flips = links.filter((l) => (l.a === x.market.id && l.b === y.market.id) || (l.a === y.market.id && l.b === x.market.id));
              expect(flips.length).toBeGreaterThan(0);
            }
          expect(e.spreadPts).toBeGreaterThanOrEqual(0);
          expect(e.consensus).toBeGreaterThanOrEqual(0);
          expect(e.consensus).toBeLessThanOrEqual(1);
        }
        const reversed = groupEvents([...links].reverse(), (id) => markets.get(id));
        expect(new Set(reversed.map((e) => e.id))).toEqual(new Set(events.map((e) => e.id)));
      },
    ),
  );
});
