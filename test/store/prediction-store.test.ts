/** The prediction-market store on SQLite and PostgreSQL: latest observation, history, movements once, briefs once. */
import { describeOnEachEngine } from '../support/store-suite.js';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 22, 6, 0, 0);

const meta = (slug: string) => ({ id: `demo:${slug}`, source: 'demo', question: `Will ${slug} happen?`, url: `https://example.test/${slug}`, topic: 'tests' });
const observation = (slug: string, prob: number, observedAt: number, volume24h = 1000) => ({ marketId: `demo:${slug}`, prob, volume24h, observedAt });
const alert = (id: string, slug: string, detectedAt: number) => ({
  id,
  marketId: `demo:${slug}`,
  question: `Will ${slug} happen?`,
  oldPct: 40,
  newPct: 46.5,
  deltaPts: 6.5,
  detectedAt,
});

describeOnEachEngine('prediction store', (suite) => {
  const { maybe } = suite;
  beforeAll(async () => {
    if (suite.enabled) await suite.store.prediction.upsertMarkets([meta('a'), meta('b'), meta('quiet')]);
  });

  maybe('keeps the newest observation per market, and the last of each hour as history', async () => {
    await suite.store.prediction.recordObservations([
      observation('a', 0.4, T0),
      observation('a', 0.42, T0 + 10 * 60_000),
      observation('a', 0.5, T0 + HOUR + 1),
      observation('b', 0.9, T0, 5_000_000),
    ]);
    // A late, older reading changes neither the latest nor a newer hour point.
    await suite.store.prediction.recordObservations([observation('a', 0.1, T0 + 5 * 60_000)]);
    const markets = await suite.store.prediction.listMarkets();
    expect(markets.map((m) => m.id).sort()).toEqual(['demo:a', 'demo:b']); // 'quiet' has no observation yet
    expect(markets.find((m) => m.id === 'demo:a')).toMatchObject({ prob: 0.5, volume24h: 1000, updatedAt: T0 + HOUR + 1, topic: 'tests' });
    expect(await suite.store.prediction.historySince(T0)).toEqual([
      { marketId: 'demo:a', hourStart: T0, prob: 0.42, observedAt: T0 + 10 * 60_000 },
      { marketId: 'demo:a', hourStart: T0 + HOUR, prob: 0.5, observedAt: T0 + HOUR + 1 },
      { marketId: 'demo:b', hourStart: T0, prob: 0.9, observedAt: T0 },
    ]);
    await suite.store.prediction.pruneHistory(T0 + HOUR);
    expect((await suite.store.prediction.historySince(0)).map((p) => p.hourStart)).toEqual([T0 + HOUR]);
    expect((await suite.store.prediction.marketsByIds(['demo:b', 'demo:nope'])).map((m) => m.question)).toEqual(['Will b happen?']);
  });

  maybe('stores a movement and its baseline together, once per market and observation, newest first', async () => {
    const inserted = await suite.store.prediction.recordMovements(
      [{ marketId: 'demo:a', pct: 46.5, observedAt: T0 + 2 * HOUR }],
      [alert('mvmt_1', 'a', T0 + 2 * HOUR), alert('mvmt_2', 'b', T0 + 3 * HOUR)],
    );
    expect(inserted.map((a) => a.id)).toEqual(['mvmt_1', 'mvmt_2']);
    // A second detector (another instance, a replay) finds the same movement: not stored twice.
    const again = await suite.store.prediction.recordMovements([], [alert('mvmt_other', 'a', T0 + 2 * HOUR)]);
    expect(again).toEqual([]);
    // An older baseline never overwrites a newer one.
    await suite.store.prediction.recordMovements([{ marketId: 'demo:a', pct: 10, observedAt: T0 }], []);
    expect(await suite.store.prediction.listBaselines()).toEqual([{ marketId: 'demo:a', pct: 46.5, observedAt: T0 + 2 * HOUR }]);
    const latest = await suite.store.prediction.latestAlerts(10);
    expect(latest.map((a) => a.id)).toEqual(['mvmt_2', 'mvmt_1']);
    expect(latest[1]).toEqual(alert('mvmt_1', 'a', T0 + 2 * HOUR));
    expect((await suite.store.prediction.latestAlerts(1)).map((a) => a.id)).toEqual(['mvmt_2']);
    expect((await suite.store.prediction.alertsSince(T0 + 3 * HOUR)).map((a) => a.id)).toEqual(['mvmt_2']);
  });

  maybe('keeps the first brief of a date, whoever saves later', async () => {
    const first = await suite.store.prediction.saveBriefOnce({ date: '2026-11-22', brief: 'first', writer: 'builtin', generatedAt: T0 });
    const second = await suite.store.prediction.saveBriefOnce({ date: '2026-11-22', brief: 'second', writer: 'gpt', generatedAt: T0 + 1 });
    expect(second).toEqual(first);
    expect(await suite.store.prediction.getBrief('2026-11-22')).toEqual({ date: '2026-11-22', brief: 'first', writer: 'builtin', generatedAt: T0 });
    expect(await suite.store.prediction.getBrief('2026-11-23')).toBeUndefined();
  });

  maybe("records a live source's complete answer with its observations, newest sweep kept, and the platform's own 24-hour move", async () => {
    const live = (slug: string) => ({ ...meta(slug), id: `polymarket:${slug}`, source: 'polymarket' });
    await suite.store.prediction.upsertMarkets([live('p1'), live('p2')]);
    expect(await suite.store.prediction.listSweeps()).toEqual(new Map());
    await suite.store.prediction.recordObservations(
      [
        { marketId: 'polymarket:p1', prob: 0.3, volume24h: 10, observedAt: T0, sourceMove24hPts: -23.45 },
        { marketId: 'polymarket:p2', prob: 0.6, volume24h: 20, observedAt: T0, sourceMove24hPts: null },
      ],
      { source: 'polymarket', at: T0 },
    );
    // A later complete answer without p2, then a late, older one that must not move the sweep back.
    await suite.store.prediction.recordObservations([{ marketId: 'polymarket:p1', prob: 0.31, volume24h: 11, observedAt: T0 + HOUR }], {
      source: 'polymarket',
      at: T0 + HOUR,
    });
    await suite.store.prediction.recordObservations([], { source: 'polymarket', at: T0 + 1 });
    expect(await suite.store.prediction.listSweeps()).toEqual(new Map([['polymarket', T0 + HOUR]]));
    const markets = await suite.store.prediction.marketsByIds(['polymarket:p1', 'polymarket:p2']);
    expect(markets.find((m) => m.id === 'polymarket:p1')).toMatchObject({ prob: 0.31, updatedAt: T0 + HOUR, sourceMove24hPts: null });
    expect(markets.find((m) => m.id === 'polymarket:p2')).toMatchObject({ prob: 0.6, updatedAt: T0, sourceMove24hPts: null });
    await suite.store.prediction.recordObservations([
      { marketId: 'polymarket:p2', prob: 0.62, volume24h: 20, observedAt: T0 + 2 * HOUR, sourceMove24hPts: 4.25 },
    ]);
    expect((await suite.store.prediction.marketsByIds(['polymarket:p2']))[0]).toMatchObject({ sourceMove24hPts: 4.25 });
  });
});
