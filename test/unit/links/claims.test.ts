import type { MarketText } from '../../../src/domain/links.js';
import { priceClaim } from '../../../src/links/claims.js';

const tracked = (asset: string) => (['BTC', 'ETH', 'TSLA'].includes(asset) ? `${asset}/USD` : null);
const market = (question: string, extra: Partial<MarketText> = {}): MarketText => ({
  venue: 'manifold',
  id: 'm',
  question,
  rules: '',
  closeTime: Date.parse('2026-01-31T12:00:00Z'),
  ...extra,
});
const claim = (question: string, extra: Partial<MarketText> = {}) => {
  const c = priceClaim(market(question, extra), tracked);
  return c && { ...c, until: new Date(c.until).toISOString(), ...(c.from !== undefined ? { from: new Date(c.from).toISOString() } : {}) };
};

describe('price claims: the issue examples (Manifold recordings)', () => {
  it('an instant in UTC', () => {
    expect(claim('Will Bitcoin exceed $90,500 USD at 22:00 UTC on January 28, 2026?')).toEqual({
      asset: 'BTC',
      symbol: 'BTC/USD',
      comparator: 'above',
      threshold: 90500,
      kind: 'at',
      until: '2026-01-28T22:00:00.000Z',
    });
  });
  it("a stock's close: 4pm in New York, 21:00Z in winter and 20:00Z in summer", () => {
    expect(claim('Will TSLA close at or above $450 EOD Jan 30, 2026?')).toEqual({
      asset: 'TSLA',
      symbol: 'TSLA/USD',
      comparator: 'at_or_above',
      threshold: 450,
      kind: 'close',
      until: '2026-01-30T21:00:00.000Z',
    });
    expect(claim('Will TSLA close at or above $450 EOD Jul 30, 2026?')?.until).toBe('2026-07-30T20:00:00.000Z');
  });
  it('a relative question has none', () => {
    expect(claim('Will Bitcoin go up in the next 24 hours?')).toBeNull();
  });
});

describe('price claims: each kind', () => {
  it('at: a 12-hour clock with a.m. in UTC', () => {
    expect(claim('Will Ethereum (ETH) exceed $3,050 USD at 12:15 a.m. UTC on January 28, 2026?')).toMatchObject({
      asset: 'ETH',
      kind: 'at',
      until: '2026-01-28T00:15:00.000Z',
    });
  });
  it("at: Kalshi's hourly title in EDT, its strike field winning over the title", () => {
    const kalshi = market('Bitcoin price on May 12, 2026 at 4am EDT? — $82,400 or above', {
      venue: 'kalshi',
      strike: { type: 'greater', floor: 82399.99 },
      closeTime: Date.parse('2026-05-12T08:00:00Z'),
    });
    expect(priceClaim(kalshi, tracked)).toEqual({
      asset: 'BTC',
      symbol: 'BTC/USD',
      comparator: 'at_or_above',
      threshold: 82400,
      kind: 'at',
      until: Date.parse('2026-05-12T08:00:00Z'),
    });
  });
  it("at: Polymarket's hourly title without a dollar sign or a year", () => {
    expect(claim('Bitcoin above 82,400 on May 12, 4AM ET?', { closeTime: Date.parse('2026-05-12T08:32:09Z') })).toMatchObject({
      comparator: 'above',
      threshold: 82400,
      kind: 'at',
      until: '2026-05-12T08:00:00.000Z',
    });
  });
  it('at: a date-only daily market takes its hour from the rules (noon ET), and has none without it', () => {
    const question = 'Will the price of Bitcoin be above $88,000 on May 11?';
    const rules =
      'This market will resolve to "Yes" if the Binance 1 minute candle for BTC/USDT 12:00 in the ET timezone (noon) on the date specified in the title has a final "Close" price higher than the price specified in the title.';
    expect(claim(question, { closeTime: Date.parse('2026-05-11T18:58:19Z'), rules })).toMatchObject({ kind: 'at', until: '2026-05-11T16:00:00.000Z' });
    expect(claim(question, { closeTime: Date.parse('2026-05-11T18:58:19Z') })).toBeNull();
  });
  it('close: a crypto close is the UTC day', () => {
    expect(claim('Will Bitcoin close above $20,000 on December 31, 2026?')).toMatchObject({
      comparator: 'above',
      threshold: 20000,
      kind: 'close',
      until: '2027-01-01T00:00:00.000Z',
    });
  });
  it('touch: a year, a month (misspelt as in the recording), a deadline', () => {
    expect(claim('Will Gold hit $6,000 per ounce in 2026?')).toEqual({
      asset: 'XAU',
      symbol: null,
      comparator: 'at_or_above',
      threshold: 6000,
      kind: 'touch',
      from: '2026-01-01T05:00:00.000Z',
      until: '2027-01-01T05:00:00.000Z',
    });
    expect(claim('Bitcoin $95K in Feburary?')).toMatchObject({
      threshold: 95000,
      kind: 'touch',
      from: '2026-02-01T05:00:00.000Z',
      until: '2026-03-01T05:00:00.000Z',
    });
    expect(claim('Will Bitcoin trade above $150,000 before December 31, 2026?')).toMatchObject({
      comparator: 'above',
      kind: 'touch',
      until: '2026-12-31T05:00:00.000Z',
    });
    expect(claim('Will Bitcoin reach $200,000 by December 31, 2026?')).toMatchObject({
      comparator: 'at_or_above',
      kind: 'touch',
      until: '2027-01-01T05:00:00.000Z',
    });
    expect(claim('Will Bitcoin dip to $50,000 in 2026?')).toMatchObject({ comparator: 'at_or_below', kind: 'touch' });
    expect(claim('Will Bitcoin reach $90,000 on May 11?', { rules: 'Binance BTC/USDT 1 minute candles, 12:00 in the ET timezone.' })).toMatchObject({
      kind: 'touch',
      from: '2026-05-11T04:00:00.000Z',
      until: '2026-05-12T04:00:00.000Z',
    });
  });
  it("between: Kalshi's range strike", () => {
    const kalshi = market('Bitcoin price range on May 12, 2026 at 4am EDT? — $82,250 to $82,499.99', {
      strike: { type: 'between', floor: 82250, cap: 82499.99 },
    });
    expect(priceClaim(kalshi, tracked)).toMatchObject({ comparator: 'between', threshold: 82250, upper: 82499.99, kind: 'at' });
  });
});

describe('price claims: refusals', () => {
  it.each([
    ['relative', 'Will Apple stock be lower on March 10, 2026, than on January 29, 2026?'],
    ['race', 'Will Bitcoin go below $30,000 before reaching a new all time high?'],
    ['race against an event', 'Will bitcoin hit $1m before GTA VI?'],
    ['earnings', 'Will TSLA go up past $470 after earnings by Jan 30, 2026?'],
    ['a film, not the stock', 'Who will play Kaladin in Apple’s film adaptation of The Stormlight Archives?'],
    ['a basketball team, not gold', 'Will the Golden State Warriors win the 2026 NBA Finals?'],
    ['a hockey team, not gold', 'Will the Vegas Golden Knights win the 2026 NHL Stanley Cup?'],
    ['another token, and a market cap', 'MegaETH market cap (FDV) >$2B one day after launch?'],
    ['a government department, not the coin', 'Will Elon and DOGE cut less than $50b in federal spending in 2025?'],
    ['no threshold', 'What price will Silver hit in 2026? (read desc.!)'],
  ])('%s: %s', (_why, question) => {
    expect(claim(question)).toBeNull();
  });
});
