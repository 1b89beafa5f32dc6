/**
 * The Kalshi connector, field by field, on both schemas: the real recordings in ../shared, served
 * by the loopback upstream (skipped with a message where absent), and this repository's small
 * hand-made pages (everywhere): cursor pagination, invalid items, schema changes.
 */
import { createKalshiConnector } from '../../src/upstream/connectors/kalshi.js';
import { UpstreamError } from '../../src/upstream/errors.js';
import type { UpstreamReply, UpstreamRoute } from '../support/upstream-server.js';
import { pollConnector } from '../support/connectors.js';
import { ownFixture, recordedFixture, sharedFixture, withShared } from '../support/upstream-fixtures.js';

type RawKalshi = Record<string, unknown> & { ticker: string; event_ticker: string; title: string; status: string; yes_sub_title?: string; category?: string };

const PATH = '/trade-api/v2/markets';
const FIRST_PAGE = `${PATH}?status=open&mve_filter=exclude&limit=1000`;
const NOW = Date.UTC(2026, 2, 16, 15, 10);
const connector = createKalshiConnector();

const route = (reply: UpstreamRoute['reply']): UpstreamRoute[] => [{ path: PATH, reply }];
const json = (value: unknown): UpstreamReply => ({ body: JSON.stringify(value) });

/** A price in dollars as the 2026 schema has it (`*_dollars`), else the legacy cents / 100; undefined when neither. */
function dollars(m: RawKalshi, field: string): number | undefined {
  if (m[`${field}_dollars`] !== undefined) return Number(m[`${field}_dollars`]);
  if (m[field] !== undefined) return Number(m[field]) / 100;
  return undefined;
}

/** The expected probability from the raw market: last trade, else the mid of a two-sided quote (bid above 0, ask below 1), else none. */
function expectedProb(m: RawKalshi): number | undefined {
  const last = dollars(m, 'last_price');
  if (last !== undefined && last > 0) return last;
  const bid = dollars(m, 'yes_bid');
  const ask = dollars(m, 'yes_ask');
  if (bid !== undefined && ask !== undefined && bid > 0 && ask < 1) return (bid + ask) / 2;
  return undefined;
}
/** Kalshi's previous price is the last trade a day ago; 0 when there was none. */
/** The move in points; compared to 9 decimals (the connector computes it exactly, a float difference is off in the 16th digit). */
function expectedMove(m: RawKalshi): number | null {
  const previous = dollars(m, 'previous_price');
  return previous !== undefined && previous > 0 ? expect.closeTo((expectedProb(m)! - previous) * 100, 9) : null;
}
const expectedVolume = (m: RawKalshi) => Math.round(Number(m.volume_24h_fp ?? m.volume_24h ?? 0));
const round4 = (p: number) => Math.round(p * 10_000) / 10_000;
const isOpen = (m: RawKalshi) => m.status === 'active' || m.status === 'open';

/**
 * Polls the connector on one page of markets and checks every mapped market against its raw record.
 * Questions are checked by their rule, not their text: each is the title, or the title with
 * " (<yes_sub_title>)" appended, and it names its YES outcome; no two are alike.
 */
async function checkFieldByField(markets: RawKalshi[]) {
  // The legacy and by-series recordings are not API pages: the test server wraps them in the
  // `{markets, cursor}` envelope the API sends, with an empty cursor (a single page).
  const { batch, requests } = await pollConnector(connector, route(json({ markets, cursor: '' })), { now: NOW });
  expect(requests.map((r) => r.pathname + r.search)).toEqual([FIRST_PAGE]);
  const kept = markets.filter((m) => isOpen(m) && expectedProb(m) !== undefined);
  expect(batch.problems).toEqual({ invalid: 0, examples: [] });
  expect(batch.complete).toBe(true);
  expect(batch.skipped).toEqual(
    Object.fromEntries(
      Object.entries({
        closed: markets.filter((m) => !isOpen(m)).length,
        unpriced: markets.filter((m) => isOpen(m) && expectedProb(m) === undefined).length,
      }).filter(([, n]) => n > 0),
    ),
  );
  expect(batch.markets.map((m) => m.id)).toEqual(kept.map((m) => `kalshi:${m.ticker}`));
  kept.forEach((m, i) => {
    const { question, ...rest } = batch.markets[i]!;
    expect(rest).toEqual({
      id: `kalshi:${m.ticker}`,
      source: 'kalshi',
      url: `https://kalshi.com/markets/${m.event_ticker.toLowerCase()}`,
      topic: m.category ? m.category : null,
    });
    expect([m.title, `${m.title} (${m.yes_sub_title})`]).toContain(question);
    if (m.yes_sub_title) expect(question.toLowerCase()).toContain(m.yes_sub_title.toLowerCase());
    expect(batch.observations[i]).toEqual({
      marketId: `kalshi:${m.ticker}`,
      prob: round4(expectedProb(m)!),
      volume24h: expectedVolume(m),
      observedAt: NOW,
      sourceMove24hPts: expectedMove(m),
    });
  });
  expect(new Set(batch.markets.map((m) => m.question)).size).toBe(batch.markets.length);
  return { batch, kept };
}

const NCAAB_EXCERPT = 'kalshi/markets_by_series_ncaab_excerpt_2026-03-16.json';
const LEGACY_EXCERPT = 'kalshi/markets_legacy_excerpt_2025-10-31.json';

describe('recorded excerpts (run everywhere)', () => {
  it('2026 schema: "Siena at Duke Winner?" becomes one question per team, priced by trade or two-sided mid, the rest skipped and counted', async () => {
    const bySeries = JSON.parse(recordedFixture(NCAAB_EXCERPT).toString()) as Record<string, RawKalshi[]>;
    const { batch } = await checkFieldByField(Object.values(bySeries).flat());
    const question = (ticker: string) => batch.markets.find((m) => m.id === `kalshi:${ticker}`)?.question;
    expect(question('KXNCAAMBGAME-26MAR19SIEDUKE-DUKE')).toBe('Siena at Duke Winner? (Duke)');
    expect(question('KXNCAAMBGAME-26MAR19SIEDUKE-SIE')).toBe('Siena at Duke Winner? (Siena)');
    // A title that already names its only outcome stays as it is.
    expect(question('KXMARMAD-26-UGA')).toBe('Will Georgia win the College Basketball National Championship?');
    // No trade but a two-sided quote: the mid; a one-sided quote: left out, counted.
    const s6 = bySeries.KXMARMADSEED!.find((m) => m.ticker === 'KXMARMADSEED-26F4-S6')!;
    expect(Number(s6.last_price_dollars)).toBe(0);
    expect(batch.observations.find((o) => o.marketId === 'kalshi:KXMARMADSEED-26F4-S6')!.prob).toBe(
      round4((Number(s6.yes_bid_dollars) + Number(s6.yes_ask_dollars)) / 2),
    );
    expect(batch.skipped.unpriced).toBeGreaterThan(0);
    // Georgia traded a day ago: its 24-hour move is Kalshi's own.
    expect(batch.observations.find((o) => o.marketId === 'kalshi:KXMARMAD-26-UGA')!.sourceMove24hPts).toBeCloseTo(-1, 12);
  });

  it('legacy schema: titles that name their outcome stay as they are; never-traded one-sided markets are counted as unpriced', async () => {
    const markets = JSON.parse(recordedFixture(LEGACY_EXCERPT).toString()) as RawKalshi[];
    const { batch } = await checkFieldByField(markets);
    expect(batch.markets.map((m) => m.question)).toEqual(markets.filter((m) => isOpen(m) && expectedProb(m) !== undefined).map((m) => m.title));
    // "When will Freddie Mac officially announce an IPO?" (one market per date) never traded: bid 0, ask 0.99.
    const freddie = markets.filter((m) => m.title.startsWith('When will Freddie Mac') && isOpen(m));
    expect(freddie.length).toBeGreaterThan(1);
    expect(batch.skipped.unpriced).toBeGreaterThanOrEqual(freddie.length);
  });
});

it('declares its source, kind, default base URL and polling interval', () => {
  expect(connector).toMatchObject({ source: 'kalshi', kind: 'prediction', defaultBaseUrl: 'https://api.elections.kalshi.com', pollMs: 60_000 });
});

describe('real recordings', () => {
  withShared('legacy schema (cent integers beside *_dollars): active, priced markets only', async () => {
    const markets = JSON.parse(sharedFixture('kalshi/trade_api_v2_markets_limit100_2025-10-31.json').toString()) as RawKalshi[];
    const { batch, kept } = await checkFieldByField(markets);
    // 56 active markets of which 19 have traded; the 37 others have a one-sided quote at most:
    // counted as unpriced. Inactive, closed and finalized ones are left out as closed.
    expect(kept).toHaveLength(19);
    expect(batch.skipped).toEqual({ unpriced: 37, closed: 44 });
    expect(batch.observations.every((o) => o.volume24h === 0)).toBe(true); // every volume_24h here is 0
    expect(batch.markets.every((m) => m.topic === null)).toBe(true); // category is "" throughout
  });

  withShared('2026 schema (dollar and fixed-point strings only, no cents): real 24h volumes', async () => {
    const bySeries = JSON.parse(sharedFixture('kalshi/trade_api_v2_markets_by_series_ncaab_2026-03-16.json').toString()) as Record<string, RawKalshi[]>;
    // Every series' markets, concatenated into one page.
    const markets = Object.values(bySeries).flat();
    expect(markets.some((m) => 'last_price' in m || 'volume_24h' in m)).toBe(false);
    const { batch, kept } = await checkFieldByField(markets);
    expect(kept.length).toBeGreaterThan(250);
    expect(batch.observations.filter((o) => o.volume24h > 0).length).toBeGreaterThan(200);
    // Some markets have only a two-sided quote: their probability is the mid.
    expect(kept.some((m) => !(Number(m.last_price_dollars) > 0))).toBe(true);
    // Every game market names its team: 96 markets, two per game, one question each.
    const games = batch.markets.filter((m) => m.id.startsWith('kalshi:KXNCAAMBGAME-'));
    expect(games).toHaveLength(96);
    const subTitle = new Map(markets.map((m) => [`kalshi:${m.ticker}`, m.yes_sub_title]));
    expect(games.every((m) => m.question.endsWith(` (${subTitle.get(m.id)})`))).toBe(true);

    const georgia = batch.observations.find((o) => o.marketId === 'kalshi:KXMARMAD-26-UGA')!;
    const raw = markets.find((m) => m.ticker === 'KXMARMAD-26-UGA')!;
    expect(georgia).toEqual({
      marketId: 'kalshi:KXMARMAD-26-UGA',
      prob: Number(raw.last_price_dollars),
      volume24h: Math.round(Number(raw.volume_24h_fp)),
      observedAt: NOW,
      sourceMove24hPts: expectedMove(raw),
    });
    expect(georgia.volume24h).toBeGreaterThan(0);
  });

  withShared('the open-markets page as recorded (envelope and cursor): combos are skipped and counted, not invalid', async () => {
    const body = sharedFixture('kalshi/trade_api_v2_markets_open_page1_2026-03-07.json');
    const recorded = JSON.parse(body.toString()) as { cursor: string; markets: RawKalshi[] };
    const { batch, requests } = await pollConnector(
      connector,
      // The recorded page first; the page its cursor points to was not recorded: an empty last page.
      route((url) => (url.searchParams.get('cursor') ? json({ markets: [], cursor: '' }) : { body })),
      { now: NOW },
    );
    expect(requests.map((r) => r.searchParams.get('cursor'))).toEqual([null, recorded.cursor]);
    expect(recorded.markets).toHaveLength(100);
    // Recorded before mve_filter=exclude was asked for: all 100 are combos, none priced.
    expect(recorded.markets.every((m) => typeof m.mve_collection_ticker === 'string' && expectedProb(m) === undefined)).toBe(true);
    expect(batch.markets).toEqual([]);
    expect(batch.skipped).toEqual({ combo: 100 });
  });
});

describe('hand-made pages', () => {
  const pages: Record<string, string> = { '': 'markets_cursor_page1.json', c2: 'markets_cursor_page2.json', c3: 'markets_cursor_page3.json' };
  /** Pages 1 to 3 from the fixtures; page 3's cursor (c4) leads to an empty last page. */
  const paged = route((url) => {
    const file = pages[url.searchParams.get('cursor') ?? ''];
    return file ? { body: ownFixture(`kalshi/${file}`) } : json({ markets: [], cursor: '' });
  });

  it('follows the cursor to the end, maps both schemas, skips and counts unpriced and settled markets, counts invalid ones', async () => {
    const { batch, requests } = await pollConnector(connector, paged, { now: NOW });
    expect(requests.map((r) => r.searchParams.get('cursor'))).toEqual([null, 'c2', 'c3', 'c4']);
    for (const r of requests) expect(r.searchParams.get('status')).toBe('open');

    const observation = (marketId: string, prob: number, volume24h: number) => ({ marketId, prob, volume24h, observedAt: NOW, sourceMove24hPts: null });
    expect(batch.observations).toEqual([
      observation('kalshi:KXFIX-26-A', 0.42, 1500), // legacy cents
      observation('kalshi:KXFIX-26-B', 0.22, 12927), // no trade: mid of 0.20/0.24
      observation('kalshi:KXFIX-26-C', 0.11, 6), // dollars/fp win over cents
      observation('kalshi:KXFIX-26-G', 0.335, 0),
      observation('kalshi:KXPAGE-27', 0.77, 301), // page 2, status "open"
      observation('kalshi:KXPAGE-28', 0.325, 7), // page 3, cents mid
    ]);
    expect(batch.markets).toEqual([
      { id: 'kalshi:KXFIX-26-A', source: 'kalshi', question: 'Will A happen in 2026?', url: 'https://kalshi.com/markets/kxfix-26', topic: 'economics' },
      {
        id: 'kalshi:KXFIX-26-B',
        source: 'kalshi',
        question: 'Who will win the fixture cup? (Team B)',
        url: 'https://kalshi.com/markets/kxfix-26',
        topic: null,
      },
      { id: 'kalshi:KXFIX-26-C', source: 'kalshi', question: 'Both schemas at once', url: 'https://kalshi.com/markets/kxfix-26', topic: null },
      { id: 'kalshi:KXFIX-26-G', source: 'kalshi', question: 'Will Georgia win?', url: 'https://kalshi.com/markets/kxfix-26', topic: null },
      { id: 'kalshi:KXPAGE-27', source: 'kalshi', question: 'Will the second page be read?', url: 'https://kalshi.com/markets/kxpage-27', topic: null },
      { id: 'kalshi:KXPAGE-28', source: 'kalshi', question: 'Will the third page be read?', url: 'https://kalshi.com/markets/kxpage-28', topic: null },
    ]);
    // F has no title, I has a garbled price: invalid. D (never traded, one-sided quote) is unpriced,
    // E (finalized) and H (closed) are closed: skipped and counted, not invalid.
    expect(batch.problems.invalid).toBe(2);
    expect(batch.problems.examples).toHaveLength(2);
    expect(batch.skipped).toEqual({ unpriced: 1, closed: 2 });
    expect(batch.complete).toBe(true);
  });

  it('stops at an empty or missing cursor', async () => {
    for (const last of [{ cursor: '' }, { cursor: null }, {}]) {
      const { batch, requests } = await pollConnector(connector, route(json({ markets: [], ...last })), { now: NOW });
      expect(requests).toHaveLength(1);
      expect(batch).toMatchObject({
        kind: 'prediction',
        source: 'kalshi',
        markets: [],
        observations: [],
        problems: { invalid: 0, examples: [] },
        complete: true,
      });
    }
  });

  it('stops at the tracked bound, asking each page for no more than the bound leaves', async () => {
    const bounded = createKalshiConnector({ maxMarkets: 7 });
    const { batch, requests } = await pollConnector(bounded, paged, { now: NOW });
    // Page 1 holds 9 markets: asked for 7, the fixture answers 9, the connector keeps 7.
    expect(requests.map((r) => r.searchParams.get('limit'))).toEqual(['7']);
    expect(batch.complete).toBe(true);
    expect(batch.problems.invalid + batch.observations.length + Object.values(batch.skipped).reduce((a, b) => a + b, 0)).toBe(7);
  });

  it('tracks every open market of each selected series and event, one list after the other', async () => {
    const selected = createKalshiConnector({ series: ['KXFIX', 'KXPAGE'], events: ['KXPAGE-28'] });
    const { requests } = await pollConnector(
      selected,
      route((url) => json(url.searchParams.get('cursor') ? { markets: [], cursor: '' } : { markets: [{ ticker: 'X' }], cursor: 'more' })),
      { now: NOW },
    );
    expect(requests.map((r) => [r.searchParams.get('series_ticker'), r.searchParams.get('event_ticker'), r.searchParams.get('cursor')])).toEqual([
      ['KXFIX', null, null],
      ['KXFIX', null, 'more'],
      ['KXPAGE', null, null],
      ['KXPAGE', null, 'more'],
      [null, 'KXPAGE-28', null],
      [null, 'KXPAGE-28', 'more'],
    ]);
    for (const r of requests) expect(r.searchParams.get('mve_filter')).toBe('exclude');
  });

  it.each([
    ['no `markets`', { data: [] }],
    ['`markets` not a list', { markets: {}, cursor: '' }],
    ['a bare list (the legacy recording as stored)', []],
    ['null', null],
  ])('fails the poll with a schema UpstreamError on %s', async (_name, body) => {
    const error = await pollConnector(connector, route(json(body)), { now: NOW }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ source: 'kalshi', failure: 'schema', retryable: false });
  });

  it('a later page that fails keeps the pages before it and marks the answer incomplete', async () => {
    const routes = route((url) => (url.searchParams.get('cursor') ? json({ items: [] }) : { body: ownFixture('kalshi/markets_cursor_page1.json') }));
    const { batch } = await pollConnector(connector, routes, { now: NOW });
    expect(batch.complete).toBe(false);
    expect(batch.observations.map((o) => o.marketId)).toEqual(['kalshi:KXFIX-26-A', 'kalshi:KXFIX-26-B', 'kalshi:KXFIX-26-C', 'kalshi:KXFIX-26-G']);
    expect(batch.problems.examples[0]).toMatch(/^page 2: kalshi: the market page changed shape/);
  });
});
