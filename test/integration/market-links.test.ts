/**
 * Market links through the running gateway (docs/links.md): the demo's venues judged at start, the
 * verdicts in PredictionMarket.links, a group in predictionEvents with its consensus, price claims
 * under assetMarket { predictionMarkets }; an operator's decision wins over the judge, survives a
 * restart, and is seen by a second instance on the same PostgreSQL at once.
 */
import { createPgSchema, tempDataDir } from '../support/engines.js';
import { gated } from '../support/gates.js';
import { bearer, closeAll, startTestService, type TestService } from '../support/service.js';
import { graphqlData } from '../support/graphql-call.js';

const BTC_PAIR = ['demo:btc-150k-2026', 'demo-exchange:KXBTCMAX-26DEC31-150000'] as const;
const FED_PAIR = ['demo:fed-cut-dec-2026', 'demo-exchange:KXFEDDECISION-26DEC-CUT'] as const;

interface Link {
  relation: string;
  decidedBy: string;
  implies: string | null;
  market: { id: string; source: string };
  evidence: { aspect: string; a: string | null; b: string | null; agrees: boolean | null }[];
  basisRisk: string[];
  missing: string[];
}

const gql = <T>(t: TestService, key: string, query: string, variables?: Record<string, unknown>): Promise<T> => graphqlData<T>(t.b, key, query, variables);

const linksOf = async (t: TestService, key: string, id: string) =>
  (
    await gql<{ predictionMarket: { links: Link[] } }>(
      t,
      key,
      'query($id: ID!) { predictionMarket(id: $id) { links { relation decidedBy implies market { id source } evidence { aspect a b agrees } basisRisk missing } } }',
      { id },
    )
  ).predictionMarket.links;

const EVENTS = '{ predictionEvents { id question consensus spreadPts volume24h markets { id source probability volume24h } } }';
type Event = {
  id: string;
  question: string;
  consensus: number;
  spreadPts: number;
  volume24h: number;
  markets: { id: string; source: string; probability: number; volume24h: number }[];
};

async function started(options: Parameters<typeof startTestService>[0] = {}) {
  const t = await startTestService(options);
  await t.service.linker.settled();
  const { key } = await t.createKey('pro', 'pro');
  return { t, key };
}

describe('the demo venues through the gateway', () => {
  let t: TestService | undefined;
  let key = '';
  beforeAll(async () => {
    ({ t, key } = await started());
  });
  afterAll(() => closeAll(t));

  it("shows the judge's verdicts with their evidence, from each market's side", async () => {
    const fromBase = await linksOf(t!, key, BTC_PAIR[0]);
    const same = fromBase.find((l) => l.market.id === BTC_PAIR[1])!;
    expect(same).toMatchObject({ relation: 'SAME', decidedBy: 'RULES', implies: null, missing: [] });
    expect(same.evidence).toContainEqual({ aspect: 'threshold', a: 'above 150000', b: 'above 150000', agrees: true });
    expect(same.basisRisk.join(' ')).toMatch(/CF Benchmarks/);
    expect(fromBase.find((l) => l.market.id === 'demo-crowd:btc-175k-2026')).toMatchObject({ relation: 'RELATED', implies: 'OTHER_IMPLIES_THIS' });
    // From the other side the evidence is turned round.
    const fromCrowd = await linksOf(t!, key, 'demo-crowd:btc-175k-2026');
    expect(fromCrowd.find((l) => l.market.id === BTC_PAIR[0])).toMatchObject({ relation: 'RELATED', implies: 'THIS_IMPLIES_OTHER' });
    // No market is linked to one of its own venue.
    for (const l of fromBase) expect(l.market.source).not.toBe('demo');
    // Filtered by relation.
    const onlySame = (
      await gql<{ predictionMarket: { links: Link[] } }>(t!, key, `{ predictionMarket(id: "${BTC_PAIR[0]}") { links(relations: [SAME]) { relation } } }`)
    ).predictionMarket.links;
    expect(onlySame).toEqual([{ relation: 'SAME' }]);
    expect((await linksOf(t!, key, 'demo:us-house-2026-dem')).map((l) => l.market.id)).not.toContain('demo-crowd:house-2026-gop');
  });

  it('groups SAME and INVERSE markets into events, consensus weighted by volume with inverse members flipped', async () => {
    const { predictionEvents } = await gql<{ predictionEvents: Event[] }>(t!, key, EVENTS);
    expect(predictionEvents.map((e) => e.markets.map((m) => m.id).sort())).toEqual(
      expect.arrayContaining([
        [...BTC_PAIR].sort(),
        ['demo-exchange:KXNBAGAME-26DEC25BOSOKC-OKC', 'demo:nba-xmas-bos-okc'],
        ['demo-crowd:sb-lxi-chiefs', 'demo:sb-lxi-chiefs'],
      ]),
    );
    const game = predictionEvents.find((e) => e.markets.some((m) => m.id === 'demo:nba-xmas-bos-okc'))!;
    const [first, second] = game.markets;
    const yes = [first!.probability, 1 - second!.probability];
    const expected = (yes[0]! * first!.volume24h + yes[1]! * second!.volume24h) / (first!.volume24h + second!.volume24h);
    expect(game.consensus).toBeCloseTo(expected, 3);
    expect(game.spreadPts).toBeCloseTo(Math.abs(yes[0]! - yes[1]!) * 100, 1);
    expect(game.volume24h).toBe(first!.volume24h + second!.volume24h);
    expect(predictionEvents.map((e) => e.volume24h)).toEqual([...predictionEvents.map((e) => e.volume24h)].sort((x, y) => y - x));
    const three = await gql<{ predictionEvents: Event[] }>(t!, key, '{ predictionEvents(minVenues: 3) { id } }');
    expect(three.predictionEvents).toEqual([]);
  });

  it('links a price claim to its asset, and the asset to the markets about it', async () => {
    const { assetMarket } = await gql<{
      assetMarket: {
        price: number;
        predictionMarkets: {
          id: string;
          claim: { assetCode: string; comparator: string; threshold: number; kind: string; until: string; distancePct: number; asset: { symbol: string } };
        }[];
      };
    }>(
      t!,
      key,
      '{ assetMarket(symbol: "BTC/USD") { price predictionMarkets { id claim { assetCode comparator threshold kind until distancePct asset { symbol } } } } }',
    );
    const claim = assetMarket.predictionMarkets.find((m) => m.id === BTC_PAIR[0])!.claim;
    expect(claim).toMatchObject({ assetCode: 'BTC', comparator: 'ABOVE', threshold: 150_000, kind: 'TOUCH', asset: { symbol: 'BTC/USD' } });
    expect(claim.distancePct).toBeCloseTo(((150_000 - assetMarket.price) / assetMarket.price) * 100, 1);
    expect(assetMarket.predictionMarkets.every((m) => m.claim.assetCode === 'BTC')).toBe(true);
    const untils = assetMarket.predictionMarkets.map((m) => Date.parse(m.claim.until));
    expect(untils).toEqual([...untils].sort((x, y) => x - y));
    const none = await gql<{ predictionMarket: { claim: null } }>(t!, key, '{ predictionMarket(id: "demo:fed-cut-dec-2026") { claim { assetCode } } }');
    expect(none.predictionMarket.claim).toBeNull();
  });

  it('refuses what a plan does not cover, and bad arguments, with a message', async () => {
    const { key: free } = await t!.createKey('pro', 'none');
    const refused = await t!.b.post('/graphql').set(bearer(free)).send({ query: '{ predictionEvents { id } }' });
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const bad = await t!.b.post('/graphql').set(bearer(key)).send({ query: '{ predictionEvents(limit: 0) { id } }' });
    expect(bad.body.errors[0].message).toBe('limit must be an integer from 1 to 100');
  });
});

it("an operator's decision wins over the judge and survives a restart (SQLite)", async () => {
  const dataDir = tempDataDir();
  let { t, key } = await started({ dataDir });
  try {
    expect((await linksOf(t, key, FED_PAIR[0])).find((l) => l.market.id === FED_PAIR[1])).toMatchObject({ relation: 'UNRESOLVED', decidedBy: 'RULES' });
    await t.service.store.marketLinks.decide(FED_PAIR[1], FED_PAIR[0], 'same', Date.now());
    await t.service.store.marketLinks.decide(BTC_PAIR[0], BTC_PAIR[1], 'different', Date.now());
    const check = async () => {
      expect((await linksOf(t, key, FED_PAIR[0])).find((l) => l.market.id === FED_PAIR[1])).toMatchObject({ relation: 'SAME', decidedBy: 'OPERATOR' });
      expect((await linksOf(t, key, BTC_PAIR[0])).map((l) => l.market.id)).not.toContain(BTC_PAIR[1]);
      const ids = (await gql<{ predictionEvents: Event[] }>(t, key, EVENTS)).predictionEvents.map((e) =>
        e.markets
          .map((m) => m.id)
          .sort()
          .join(' '),
      );
      expect(ids).toContain([...FED_PAIR].sort().join(' '));
      expect(ids).not.toContain([...BTC_PAIR].sort().join(' '));
    };
    await check();
    await t.close({ keepData: true });
    ({ t, key } = await started({ dataDir }));
    await check();
  } finally {
    await t.close();
  }
});

gated('postgres')('two instances on one PostgreSQL see a decision at once, and after both restart', async () => {
  const schema = await createPgSchema();
  const env = { DATABASE_URL: schema.url };
  let one = await started({ env });
  let two = await started({ env });
  try {
    await one.t.service.store.marketLinks.decide(FED_PAIR[0], FED_PAIR[1], 'inverse', Date.now());
    for (const { t, key } of [one, two]) {
      expect((await linksOf(t, key, FED_PAIR[1])).find((l) => l.market.id === FED_PAIR[0])).toMatchObject({ relation: 'INVERSE', decidedBy: 'OPERATOR' });
    }
    await closeAll(one.t, two.t);
    one = await started({ env });
    two = await started({ env });
    for (const { t, key } of [one, two]) {
      expect((await linksOf(t, key, FED_PAIR[0])).find((l) => l.market.id === FED_PAIR[1])).toMatchObject({ relation: 'INVERSE', decidedBy: 'OPERATOR' });
    }
  } finally {
    await closeAll(one.t, two.t);
    await schema.drop();
  }
});
