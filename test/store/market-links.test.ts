/** The market links' store on SQLite and PostgreSQL: texts and claims, verdicts from either side, the operator's decisions winning. */
import type { LinkVerdict, MarketText } from '../../src/domain/links.js';
import { describeOnEachEngine } from '../support/store-suite.js';

const T0 = Date.UTC(2026, 10, 29, 6, 0, 0);

const text = (venue: string, id: string, question: string, extra: Partial<MarketText> = {}): MarketText => ({
  venue,
  id,
  question,
  rules: `This market resolves to Yes if ${question}`,
  closeTime: T0,
  ...extra,
});

const verdict = (relation: LinkVerdict['relation'], extra: Partial<LinkVerdict> = {}): LinkVerdict => ({
  relation,
  evidence: [{ aspect: 'threshold', a: '90000', b: '85000', agrees: false }],
  basisRisk: ['settlement source differs'],
  missing: [],
  ...extra,
});

describeOnEachEngine('market links store', (suite) => {
  const { maybe } = suite;

  maybe('keeps texts with their claims, replaces them, and finds markets by claimed asset', async () => {
    const links = suite.store.marketLinks;
    const btc = { asset: 'BTC', symbol: 'BTC/USD', comparator: 'above' as const, threshold: 150_000, kind: 'touch' as const, until: T0 };
    await links.upsertTexts([
      {
        marketId: 'kalshi:K1',
        text: text('kalshi', 'K1', 'Bitcoin above 150k?', { strike: { type: 'greater', floor: 150_000, cap: null }, expiryTime: T0 + 1 }),
        hash: 'h1',
        claim: btc,
        updatedAt: T0,
      },
      {
        marketId: 'polymarket:P1',
        text: text('polymarket', 'P1', 'Will it rain?', { yesSide: 'Yes', resolutionSource: 'NOAA' }),
        hash: 'h2',
        claim: null,
        updatedAt: T0,
      },
    ]);
    await links.upsertTexts([{ marketId: 'polymarket:P1', text: text('polymarket', 'P1', 'Will it snow?'), hash: 'h3', claim: null, updatedAt: T0 + 5 }]);
    const stored = await links.textsByIds(['kalshi:K1', 'polymarket:P1', 'nowhere:X']);
    expect(stored.find((t) => t.marketId === 'kalshi:K1')).toEqual({
      marketId: 'kalshi:K1',
      text: {
        venue: 'kalshi',
        id: 'K1',
        question: 'Bitcoin above 150k?',
        rules: 'This market resolves to Yes if Bitcoin above 150k?',
        closeTime: T0,
        expiryTime: T0 + 1,
        yesSide: null,
        strike: { type: 'greater', floor: 150_000, cap: null },
        resolutionSource: null,
      },
      hash: 'h1',
      claim: btc,
      updatedAt: T0,
    });
    expect(stored.find((t) => t.marketId === 'polymarket:P1')).toMatchObject({
      hash: 'h3',
      text: { question: 'Will it snow?', yesSide: null },
      updatedAt: T0 + 5,
    });
    expect(await links.marketIdsClaiming('BTC')).toEqual(['kalshi:K1']);
    expect(await links.marketIdsClaiming('ETH')).toEqual([]);
    const pages = [];
    for await (const page of links.textPages(1)) pages.push(page.map((t) => t.marketId));
    expect(pages).toEqual([['kalshi:K1'], ['polymarket:P1']]);
  });

  maybe("a verdict is seen from both sides, evidence and implication turned round; judged again, the market's old verdicts go", async () => {
    const links = suite.store.marketLinks;
    // Judged from the later id's side: the store orders the pair and turns the verdict round.
    await links.replaceVerdicts(
      'z:2',
      [
        { otherId: 'a:1', verdict: verdict('related', { implies: 'a_implies_b' }), decidedBy: 'rules' },
        { otherId: 'b:1', verdict: verdict('different'), decidedBy: 'rules' },
      ],
      T0,
    );
    const seen = await links.linksOf(['z:2', 'a:1', 'b:1']);
    expect(seen.get('b:1')).toEqual([]);
    expect(seen.get('z:2')).toEqual([
      {
        marketId: 'z:2',
        otherId: 'a:1',
        relation: 'related',
        implies: 'a_implies_b',
        evidence: [{ aspect: 'threshold', a: '90000', b: '85000', agrees: false }],
        basisRisk: ['settlement source differs'],
        missing: [],
        decidedBy: 'rules',
        decidedAt: T0,
      },
    ]);
    expect(seen.get('a:1')).toEqual([
      expect.objectContaining({
        marketId: 'a:1',
        otherId: 'z:2',
        implies: 'b_implies_a',
        evidence: [{ aspect: 'threshold', a: '85000', b: '90000', agrees: false }],
      }),
    ]);
    // Judged again, now different: the link goes.
    await links.replaceVerdicts('a:1', [{ otherId: 'z:2', verdict: verdict('different'), decidedBy: 'rules' }], T0 + 1);
    expect((await links.linksOf(['a:1'])).get('a:1')).toEqual([]);
  });

  maybe("the operator's decision wins over the judge, in both directions, and a later one replaces it", async () => {
    const links = suite.store.marketLinks;
    await links.replaceVerdicts(
      'm:1',
      [
        { otherId: 'n:1', verdict: verdict('unresolved', { missing: ['the YES side of n:1'] }), decidedBy: 'rules' },
        { otherId: 'o:1', verdict: verdict('same'), decidedBy: 'rules' },
      ],
      T0,
    );
    expect((await links.listLinks(['unresolved'])).map((l) => [l.marketId, l.otherId])).toContainEqual(['m:1', 'n:1']);

    await links.decide('n:1', 'm:1', 'same', T0 + 10);
    await links.decide('m:1', 'o:1', 'different', T0 + 11);
    const [view] = (await links.linksOf(['m:1'])).get('m:1')!;
    expect(view).toMatchObject({ otherId: 'n:1', relation: 'same', decidedBy: 'operator', decidedAt: T0 + 10, missing: ['the YES side of n:1'] });
    expect((await links.listLinks(['unresolved'])).map((l) => l.marketId)).not.toContain('m:1');

    // The judge judging again does not undo the operator; a verdict no longer given goes, the decision stays.
    await links.replaceVerdicts('m:1', [{ otherId: 'o:1', verdict: verdict('same'), decidedBy: 'rules' }], T0 + 20);
    expect((await links.linksOf(['o:1'])).get('o:1')).toEqual([]);
    expect((await links.linksOf(['n:1'])).get('n:1')).toEqual([
      expect.objectContaining({ otherId: 'm:1', relation: 'same', decidedBy: 'operator', evidence: [] }),
    ]);

    // A decision on a pair the judge never saw is a link too; a later decision replaces it.
    await links.decide('q:1', 'p:1', 'inverse', T0 + 30);
    expect((await links.linksOf(['q:1'])).get('q:1')).toEqual([
      expect.objectContaining({ otherId: 'p:1', relation: 'inverse', evidence: [], decidedBy: 'operator' }),
    ]);
    await links.decide('p:1', 'q:1', 'related', T0 + 31);
    // What settles together, decisions over verdicts: n-m confirmed same, o-m rejected, q-p now related.
    expect(await links.settlingPairs()).toEqual(expect.arrayContaining([{ a: 'm:1', b: 'n:1', relation: 'same' }]));
    expect((await links.settlingPairs()).map((p) => `${p.a}~${p.b}`)).not.toContain('m:1~o:1');
    expect((await links.settlingPairs()).map((p) => `${p.a}~${p.b}`)).not.toContain('p:1~q:1');
    expect((await links.linksOf(['q:1'])).get('q:1')).toEqual([expect.objectContaining({ relation: 'related', decidedAt: T0 + 31, implies: null })]);
  });
});
