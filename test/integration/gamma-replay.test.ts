/**
 * Polymarket's real snapshots of 2026-01-10 and 2026-01-31, served the way Gamma serves them
 * (filters, ordering by 24-hour volume, a page cap, offsets) and swapped while the service runs.
 * Variant B must report every market of both snapshots that moved by more than 5 points, and rank
 * only what the latest answer contains. Runs on this repository's excerpts everywhere, and on the
 * whole recordings (500 markets: two pages) where ../shared exists.
 */
import { startGammaServer, GAMMA_PAGE_CAP, type GammaServer } from '../support/gamma-server.js';
import { recordedFixture, sharedFixture, withShared } from '../support/upstream-fixtures.js';
import { bearer, closeAll, startTestService, TestClock, type TestService } from '../support/service.js';

interface RawGamma {
  id: string;
  question: string;
  outcomePrices: string;
  volume24hr?: number;
}

const FIRST_AT = Date.parse('2026-01-10T10:30:00Z');
const SECOND_AT = Date.parse('2026-01-31T18:10:00Z');
/** The 13 markets of both snapshots whose first outcome moved by more than 5 points (both the excerpt and the whole recordings keep all of them). */
const MOVEMENTS = 13;

/** The first outcome's price in whole basis points, straight from Gamma's JSON-encoded string. */
const basisPoints = (m: RawGamma): number => Math.round(Number((JSON.parse(m.outcomePrices) as string[])[0]) * 10_000);
/** One decimal, halves away from zero, from a whole number of basis points. */
const pointsOfBp = (bp: number): number => (Math.sign(bp) * Math.round(Math.abs(bp) / 10)) / 10 || 0;

const cases = [
  {
    name: 'the recorded excerpts',
    test: it,
    read: (date: string) => recordedFixture(`polymarket/gamma_markets_excerpt_${date}.json`),
  },
  {
    name: 'the whole recordings',
    test: withShared,
    read: (date: string) =>
      sharedFixture(
        date === '2026-01-10' ? 'polymarket/gamma_markets_active_limit100_2026-01-10.json' : 'polymarket/gamma_markets_active_limit500_2026-01-31.json',
      ),
  },
];

let gamma: GammaServer | undefined;
let t: TestService | undefined;
afterEach(async () => {
  await closeAll(t, gamma);
  t = gamma = undefined;
});

describe.each(cases)('$name, replayed as Gamma answers them', ({ test, read }) => {
  test('every movement of more than 5 points is reported once, and only the latest answer is ranked', async () => {
    const first = JSON.parse(read('2026-01-10').toString()) as RawGamma[];
    const second = JSON.parse(read('2026-01-31').toString()) as RawGamma[];
    const clock = new TestClock(FIRST_AT);
    gamma = await startGammaServer(first);
    t = await startTestService({
      clock,
      env: { FEEDS: 'polymarket', POLYMARKET_BASE_URL: gamma.baseUrl, POLYMARKET_POLL_MS: '3600000', UPSTREAM_PAGE_GAP_MS: '0', UPSTREAM_TIMEOUT_MS: '2000' },
    });
    const { key } = await t.createKey('free', 'pro');
    const markets = async () =>
      (await t!.b.get('/api/v1/markets').set(bearer(key)).expect(200)).body as {
        count: number;
        markets: { question: string; volume_24h: number; source: string }[];
      };

    await t.service.liveFeeds.pollAll();
    const ranked = await markets();
    expect(ranked.count).toBe(Math.min(50, first.length));

    clock.value = SECOND_AT;
    gamma.setMarkets(second);
    const requestsBefore = gamma.requests.length;
    await t.service.liveFeeds.pollAll();

    // The whole answer was read a page of 500 at a time, until a page came back short.
    const offsets = gamma.requests.slice(requestsBefore).map((url) => Number(url.searchParams.get('offset')));
    expect(offsets).toEqual(Array.from({ length: Math.floor(second.length / GAMMA_PAGE_CAP) + 1 }, (_, i) => i * GAMMA_PAGE_CAP));

    // Computed from the raw JSON alone: markets in both snapshots that moved by more than 500 basis points.
    const before = new Map(first.map((m) => [m.id, basisPoints(m)]));
    const expected = second
      .filter((m) => before.has(m.id) && Math.abs(basisPoints(m) - before.get(m.id)!) > 500)
      .map((m) => ({
        question: m.question.trim(),
        old_pct: before.get(m.id)! / 100,
        new_pct: basisPoints(m) / 100,
        delta_pts: pointsOfBp(basisPoints(m) - before.get(m.id)!),
        type: 'movement',
        detected_at: new Date(SECOND_AT).toISOString(),
      }));
    expect(expected).toHaveLength(MOVEMENTS);

    const byQuestion = (a: { question: string }, b: { question: string }) => a.question.localeCompare(b.question);
    const alerts = (await t.b.get('/api/v1/alerts?limit=100').set(bearer(key)).expect(200)).body as { count: number; alerts: typeof expected };
    expect(alerts.count).toBe(MOVEMENTS);
    expect([...alerts.alerts].sort(byQuestion)).toEqual([...expected].sort(byQuestion));

    // Ranked by the latest answer only: a market the second snapshot lacks has left the list, the
    // others show their new volume, highest first.
    const latest = new Map(second.map((m) => [m.question.trim(), Math.round(m.volume24hr ?? 0)]));
    const shown = await markets();
    expect(shown.count).toBe(Math.min(50, second.length));
    expect(first.some((m) => !latest.has(m.question.trim()))).toBe(true);
    expect(new Set(shown.markets.map((m) => m.question)).size).toBe(shown.count); // no two share a question
    for (const m of shown.markets) expect(m.volume_24h).toBe(latest.get(m.question));
    const volumes = shown.markets.map((m) => m.volume_24h);
    expect(volumes).toEqual([...volumes].sort((a, b) => b - a));
    expect(volumes[0]).toBe(Math.max(...latest.values()));

    // Polled again: nothing new, nothing twice.
    await t.service.liveFeeds.pollAll();
    expect((await t.b.get('/api/v1/alerts?limit=100').set(bearer(key))).body.count).toBe(MOVEMENTS);
  });
});
