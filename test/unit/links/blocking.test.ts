import type { MarketText } from '../../../src/domain/links.js';
import { blockingKeys } from '../../../src/links/blocking.js';
import { judgePair } from '../../../src/links/judge.js';
import { devMarkets, devPairs, withDevSet } from './dev-set.js';

const market = (venue: string, id: string, question: string, close: string, rules = ''): MarketText => ({
  venue,
  id,
  question,
  rules,
  closeTime: Date.parse(close),
});

describe('blocking keys', () => {
  it("join a team's word with the fixture's day, across the venues' spellings", () => {
    const k = blockingKeys(market('kalshi', 'KXMLBGAME-26MAY091610HOUCIN-HOU', 'Houston vs Cincinnati', '2026-05-09T22:34:42Z'));
    const p = blockingKeys(market('polymarket', '2154788', 'Houston Astros vs. Cincinnati Reds', '2026-05-10T02:43:14Z'));
    expect(k).toEqual(expect.arrayContaining(['team:houston:2026-05-09', 'team:cincinnati:2026-05-09']));
    expect(p.filter((key) => k.includes(key))).not.toHaveLength(0);
  });

  it('join an asset with the day its price is read', () => {
    expect(blockingKeys(market('polymarket', 'p', 'Bitcoin above 82,400 on May 12, 4AM ET?', '2026-05-12T08:32:09Z'))).toContain('asset:BTC:2026-05-12');
  });

  it('a market with nothing to key on has none, rather than a key every market shares', () => {
    expect(blockingKeys(market('manifold', 'm', 'will it happen?', '2026-05-12T08:32:09Z'))).toEqual([]);
  });

  withDevSet('every dev-set pair the judge calls same, inverse or related shares a key; no market has more than 12', () => {
    for (const pair of devPairs()) {
      const relation = judgePair(pair.a, pair.b).relation;
      if (relation === 'same' || relation === 'inverse' || relation === 'related') {
        const [ka, kb] = [blockingKeys(pair.a), blockingKeys(pair.b)];
        expect({ line: pair.line, shared: ka.some((key) => kb.includes(key)) }).toEqual({ line: pair.line, shared: true });
      }
    }
    for (const m of devMarkets()) expect(blockingKeys(m).length).toBeLessThanOrEqual(12);
  });
});
