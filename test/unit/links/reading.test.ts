import type { MarketText } from '../../../src/domain/links.js';
import { judgePair } from '../../../src/links/judge.js';
import { readMarket } from '../../../src/links/reading.js';

const hourly = (threshold: string): MarketText => ({
  venue: 'polymarket',
  id: 'p',
  question: `Bitcoin above ${threshold} on May 12, 4AM ET?`,
  rules: '',
  closeTime: Date.parse('2026-05-12T08:30:00Z'),
});

describe('a market read once', () => {
  it('keeps its reading for the same object and texts', () => {
    const m = hourly('82,400');
    expect(readMarket(m)).toBe(readMarket(m));
  });
  it('reads a market object again once its texts change', () => {
    const a = hourly('82,400');
    const b = { ...hourly('82,400'), id: 'q' };
    expect(judgePair(a, b).relation).toBe('same');
    b.question = 'Bitcoin above 90,000 on May 12, 4AM ET?';
    expect(judgePair(a, b)).toMatchObject({ relation: 'related', implies: 'b_implies_a' });
  });
});
