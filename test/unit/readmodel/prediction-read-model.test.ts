/**
 * The prediction read model's ranking: a live source's complete answer decides which of its markets
 * are ranked; the 24-hour move comes from the platform until our own history covers a day; two
 * markets never share a question on the list.
 */
import type { PredictionMarketMeta, ProbabilityObservation } from '../../../src/domain/prediction.js';
import { PredictionReadModel } from '../../../src/readmodel/prediction-read-model.js';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 31, 18, 0);

const meta = (id: string, question = `Question of ${id}?`): PredictionMarketMeta => ({
  id,
  source: id.slice(0, id.indexOf(':')),
  question,
  url: `https://example.test/${id}`,
  topic: null,
});
const seen = (marketId: string, observedAt: number, fields: Partial<ProbabilityObservation> = {}): ProbabilityObservation => ({
  marketId,
  prob: 0.5,
  volume24h: 100,
  observedAt,
  ...fields,
});
const rankedIds = (model: PredictionReadModel, now: number) => model.top(50, now).map((s) => s.market.id);

describe('ranking by the last complete answer of each source', () => {
  const model = new PredictionReadModel();
  model.applyMarkets([meta('polymarket:a'), meta('polymarket:b'), meta('kalshi:k'), meta('demo:d')]);
  model.applyObservations(['polymarket:a', 'polymarket:b', 'kalshi:k', 'demo:d'].map((id) => seen(id, T0)));
  model.applySweep('polymarket', T0);
  model.applySweep('kalshi', T0);

  it('ranks every market seen in its source’s last complete answer', () => {
    expect(rankedIds(model, T0).sort()).toEqual(['demo:d', 'kalshi:k', 'polymarket:a', 'polymarket:b']);
  });

  it('a partial answer (no sweep) leaves the markets it did not reach ranked on their last data', () => {
    model.applyObservations([seen('polymarket:a', T0 + HOUR, { volume24h: 500 })]);
    expect(rankedIds(model, T0 + HOUR)).toContain('polymarket:b');
  });

  it('a complete answer without a market unranks it at once, for that source only; the market is still known', () => {
    model.applyObservations([seen('polymarket:a', T0 + 2 * HOUR)]);
    model.applySweep('polymarket', T0 + 2 * HOUR);
    const now = T0 + 2 * HOUR;
    expect(rankedIds(model, now).sort()).toEqual(['demo:d', 'kalshi:k', 'polymarket:a']);
    expect(model.get('polymarket:b')).toMatchObject({ id: 'polymarket:b', updatedAt: T0 });
    expect(model.isActive(model.get('polymarket:b')!, now)).toBe(false);
    // An older sweep arriving late changes nothing.
    model.applySweep('polymarket', T0);
    expect(rankedIds(model, now)).not.toContain('polymarket:b');
    // Back in a later answer, back in the ranking.
    model.applyObservations([seen('polymarket:b', T0 + 3 * HOUR)]);
    model.applySweep('polymarket', T0 + 3 * HOUR);
    expect(rankedIds(model, T0 + 3 * HOUR)).toContain('polymarket:b');
  });
});

describe('the 24-hour move', () => {
  const moveOf = (model: PredictionReadModel, id: string, now: number) => model.top(50, now).find((s) => s.market.id === id)!.move24hPts;

  it("is the platform's own while our history is younger than a day, then ours; none when neither exists", () => {
    const model = new PredictionReadModel();
    model.applyMarkets([meta('polymarket:m'), meta('manifold:n')]);
    model.applyObservations([seen('polymarket:m', T0, { prob: 0.3, sourceMove24hPts: 23.45 }), seen('manifold:n', T0, { prob: 0.3 })]);
    // Two hours of our own history: not a day; the platform says +23.45 points (one decimal, halves away from zero).
    model.applyObservations([seen('polymarket:m', T0 + 2 * HOUR, { prob: 0.32, sourceMove24hPts: 23.45 }), seen('manifold:n', T0 + 2 * HOUR, { prob: 0.32 })]);
    expect(moveOf(model, 'polymarket:m', T0 + 2 * HOUR)).toBe(23.5);
    // Manifold reports none: the change since our first point.
    expect(moveOf(model, 'manifold:n', T0 + 2 * HOUR)).toBe(2);
    // A day later our own history reaches back a day: ours wins (32 -> 40 is 8 points), whatever the platform says.
    model.applyObservations([seen('polymarket:m', T0 + 26 * HOUR, { prob: 0.4, sourceMove24hPts: -1 })]);
    expect(moveOf(model, 'polymarket:m', T0 + 26 * HOUR)).toBe(8);
  });

  it('is 0 at a first observation without a platform move, and the market is ranked only once observed', () => {
    const model = new PredictionReadModel();
    model.applyMarkets([meta('kalshi:fresh')]);
    expect(model.top(50, T0)).toEqual([]);
    model.applyObservations([seen('kalshi:fresh', T0, { sourceMove24hPts: null })]);
    expect(moveOf(model, 'kalshi:fresh', T0)).toBe(0);
  });
});

it('two markets never share a question on the list: the source tells them apart, else the id', () => {
  const model = new PredictionReadModel();
  const question = 'Will it rain in Paris tomorrow?';
  model.applyMarkets([meta('polymarket:1', question), meta('kalshi:R1', question), meta('kalshi:R2', question), meta('manifold:x', 'Something else?')]);
  model.applyObservations(['polymarket:1', 'kalshi:R1', 'kalshi:R2', 'manifold:x'].map((id, i) => seen(id, T0, { volume24h: 100 - i })));
  const questions = model.top(50, T0).map((s) => s.market.question);
  expect(questions).toEqual([`${question} (polymarket)`, `${question} (kalshi) (R1)`, `${question} (kalshi) (R2)`, 'Something else?']);
  // The market itself keeps its question; only the list qualifies it.
  expect(model.get('kalshi:R1')!.question).toBe(question);
});
