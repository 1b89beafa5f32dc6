import { marketTextFromJson } from '../../../src/links/market-json.js';

describe('the MARKET JSON shape', () => {
  it('reads both close-time spellings of pairs-dev and the optional extras', () => {
    expect(marketTextFromJson({ venue: 'Kalshi', id: 'K', question: 'q', rules: '', close_time: '2026-05-10T17:01:08Z', yes_side: 'Varese' })).toEqual({
      venue: 'kalshi',
      id: 'K',
      question: 'q',
      rules: '',
      closeTime: Date.parse('2026-05-10T17:01:08Z'),
      yesSide: 'Varese',
    });
    const m = marketTextFromJson({
      venue: 'polymarket',
      id: 'P',
      question: 'q',
      rules: 'r',
      close_time: '2026-05-10 18:54:53+00',
      expiry_time: '2026-05-11T00:00:00Z',
      strike: { type: 'greater', floor: 82399.99 },
      resolution_source: 'https://www.binance.com',
    });
    expect(m).toMatchObject({
      closeTime: Date.parse('2026-05-10T18:54:53Z'),
      expiryTime: Date.parse('2026-05-11T00:00:00Z'),
      strike: { type: 'greater', floor: 82399.99, cap: null },
      resolutionSource: 'https://www.binance.com',
    });
  });

  it('a missing close time is null; rules may be absent', () => {
    expect(marketTextFromJson({ venue: 'manifold', id: 'M', question: 'q' })).toMatchObject({ rules: '', closeTime: null });
  });

  it.each([
    [{ venue: 'kalshi', id: 'K', rules: '' }, 'not a market: question: '],
    [{ venue: 'kalshi', id: 'K', question: 'q', close_time: 'tomorrow' }, 'not a market: close_time: not a time'],
    [{ venue: 'kalshi', id: 7, question: 'q' }, 'not a market: id: '],
    ['a string', 'not a market: '],
  ])('refuses %j, naming the field', (json, message) => {
    expect(() => marketTextFromJson(json)).toThrow(message);
  });
});
