/**
 * One rounding, for every prediction connector: what a client is shown (the probability to 4
 * decimals, its whole percent, the 24-hour move to one decimal) equals the exact value of the
 * platform's own numbers rounded once. Inputs are generated on the platforms' grids (4-decimal
 * prices); the expected values are computed here in integers, never with the code under test.
 */
import fc from 'fast-check';
import { roundPoints, roundProb, wholePercentOf } from '../../../src/prediction/percent.js';
import { createKalshiConnector } from '../../../src/upstream/connectors/kalshi.js';
import { createManifoldConnector } from '../../../src/upstream/connectors/manifold.js';
import { createPolymarketConnector } from '../../../src/upstream/connectors/polymarket.js';
import { pollConnector } from '../../support/connectors.js';

const NOW = Date.UTC(2026, 2, 16, 15, 10);
const RUNS = 60;

/** n / d to `places` decimals, halves away from zero, in integers (n, d whole, d > 0). */
function exactRound(n: number, d: number, places: number): number {
  const scale = 10 ** places;
  const magnitude = Math.floor((2 * Math.abs(n) * scale + d) / (2 * d));
  return (Math.sign(n) * magnitude) / scale || 0;
}
/** A 4-decimal price as text and as whole basis points. */
const price = (min: number, max: number) => fc.integer({ min, max }).map((bp) => ({ bp, text: (bp / 10_000).toFixed(4) }));

/** What the edge shows for one observation (read model and resolvers). */
const shown = (o: { prob: number; sourceMove24hPts?: number | null | undefined }) => ({
  prob: roundProb(o.prob),
  pct: wholePercentOf(o.prob),
  move: o.sourceMove24hPts === null || o.sourceMove24hPts === undefined ? null : roundPoints(o.sourceMove24hPts),
});

it('Kalshi: the mid of a two-sided quote and the move since yesterday’s trade, each rounded once', async () => {
  await fc.assert(
    fc.asyncProperty(price(1, 9_998), price(1, 9_998), price(1, 9_999), async (a, b, previous) => {
      const [bid, ask] = a.bp <= b.bp ? [a, b] : [b, a];
      const market = {
        ticker: 'KXT-1',
        event_ticker: 'KXT',
        title: 'Will it?',
        status: 'active',
        last_price_dollars: '0.0000',
        yes_bid_dollars: bid.text,
        yes_ask_dollars: ask.text,
        previous_price_dollars: previous.text,
      };
      const { batch } = await pollConnector(
        createKalshiConnector(),
        [{ path: '/trade-api/v2/markets', reply: { body: JSON.stringify({ markets: [market], cursor: '' }) } }],
        { now: NOW },
      );
      // mid = (bid + ask) / 2 in basis points; move = mid - previous in points = (bid + ask - 2 previous) / 200.
      expect(shown(batch.observations[0]!)).toEqual({
        prob: exactRound(bid.bp + ask.bp, 2, 0) / 10_000,
        pct: exactRound(exactRound(bid.bp + ask.bp, 2, 0), 100, 0),
        move: exactRound(bid.bp + ask.bp - 2 * previous.bp, 200, 1),
      });
    }),
    { numRuns: RUNS },
  );
});

it('Polymarket: the first outcome price and oneDayPriceChange, each rounded once', async () => {
  await fc.assert(
    fc.asyncProperty(price(0, 10_000), price(-10_000, 10_000), async (first, change) => {
      const market = {
        id: '1',
        question: 'Will it?',
        slug: 'will-it',
        outcomes: '["Yes", "No"]',
        outcomePrices: JSON.stringify([first.text, ((10_000 - first.bp) / 10_000).toFixed(4)]),
        oneDayPriceChange: Number(change.text),
        active: true,
        closed: false,
      };
      const { batch } = await pollConnector(createPolymarketConnector(), [{ path: '/markets', reply: { body: JSON.stringify([market]) } }], { now: NOW });
      expect(shown(batch.observations[0]!)).toEqual({
        prob: first.bp / 10_000,
        pct: exactRound(first.bp, 100, 0),
        // A fraction in basis points is a move in hundredths of a point.
        move: exactRound(change.bp, 100, 1),
      });
    }),
    { numRuns: RUNS },
  );
});

it('Manifold: an unrounded probability rounded once to 4 decimals and to a whole percent from it (D7)', async () => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 0, max: 10 ** 8 }), async (hundredMillionths) => {
      const market = {
        id: 'm1',
        question: 'Will it?',
        url: 'https://manifold.markets/x/will-it',
        outcomeType: 'BINARY',
        probability: hundredMillionths / 10 ** 8,
      };
      const { batch } = await pollConnector(createManifoldConnector(), [{ path: '/v0/markets', reply: { body: JSON.stringify([market]) } }], { now: NOW });
      const bp = exactRound(hundredMillionths, 10_000, 0);
      // D7 defines prob_pct from the shown prob: round(prob * 100).
      expect(shown(batch.observations[0]!)).toEqual({ prob: bp / 10_000, pct: exactRound(bp, 100, 0), move: null });
    }),
    { numRuns: RUNS },
  );
});
