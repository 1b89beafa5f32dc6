/**
 * The Kalshi connector, field by field, on both schemas: the real recordings in ../shared, served
 * by the loopback upstream (skipped with a message where absent), and this repository's small
 * hand-made pages (everywhere): cursor pagination, invalid items, schema changes.
 */
import { createKalshiConnector } from '../../src/upstream/connectors/kalshi.js';
import { UpstreamError } from '../../src/upstream/errors.js';
import type { UpstreamReply, UpstreamRoute } from '../support/upstream-server.js';
import { pollConnector } from '../support/connectors.js';
import { ownFixture, sharedFixture, withShared } from '../support/upstream-fixtures.js';

type RawKalshi = Record<string, unknown> & { ticker: string; event_ticker: string; title: string; status: string; yes_sub_title?: string; category?: string };

const PATH = '/trade-api/v2/markets';
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

/** The expected observation, computed from the raw market: last price, else the bid/ask mid, else none. */
function expectedProb(m: RawKalshi): number | undefined {
  const last = dollars(m, 'last_price');
  if (last !== undefined && last > 0) return last;
  const bid = dollars(m, 'yes_bid');
  const ask = dollars(m, 'yes_ask');
  if (bid !== undefined && ask !== undefined && bid > 0 && ask > 0) return (bid + ask) / 2;
  return undefined;
}
const expectedVolume = (m: RawKalshi) => Math.round(Number(m.volume_24h_fp ?? m.volume_24h ?? 0));
const expectedQuestion = (m: RawKalshi) =>
  m.yes_sub_title && !m.title.includes(m.yes_sub_title) ? `${m.title} — ${m.yes_sub_title}` : m.title;
const round4 = (p: number) => Math.round(p * 10_000) / 10_000;

/** Polls the connector on one page of markets, and checks every mapped market against its raw record. */
async function checkFieldByField(markets: RawKalshi[]) {
  // The legacy and by-series recordings are not API pages: the test server wraps them in the
  // `{markets, cursor}` envelope the API sends, with an empty cursor (a single page).
  const { batch, requests } = await pollConnector(connector, route(json({ markets, cursor: '' })), { now: NOW });
  expect(requests.map((r) => r.pathname + r.search)).toEqual([`${PATH}?status=open&limit=200`]);
  const kept = markets.filter((m) => (m.status === 'active' || m.status === 'open') && expectedProb(m) !== undefined);
  expect(batch.problems).toEqual({ invalid: 0, examples: [] });
  expect(batch.markets.map((m) => m.id)).toEqual(kept.map((m) => `kalshi:${m.ticker}`));
  kept.forEach((m, i) => {
    expect(batch.markets[i]).toEqual({
      id: `kalshi:${m.ticker}`,
      source: 'kalshi',
      question: expectedQuestion(m),
      url: `https://kalshi.com/markets/${m.event_ticker.toLowerCase()}`,
      topic: m.category ? m.category : null,
    });
    expect(batch.observations[i]).toEqual({ marketId: `kalshi:${m.ticker}`, prob: round4(expectedProb(m)!), volume24h: expectedVolume(m), observedAt: NOW });
  });
  return { batch, kept };
}

it('declares its source, kind, default base URL and polling interval', () => {
  expect(connector).toMatchObject({ source: 'kalshi', kind: 'prediction', defaultBaseUrl: 'https://api.elections.kalshi.com', pollMs: 60_000 });
});

describe('real recordings', () => {
  withShared('legacy schema (cent integers beside *_dollars): active, priced markets only', async () => {
    const markets = JSON.parse(sharedFixture('kalshi/trade_api_v2_markets_limit100_2025-10-31.json').toString()) as RawKalshi[];
    const { batch, kept } = await checkFieldByField(markets);
    // 56 active markets of which 19 have traded; inactive, closed and finalized ones are left out.
    expect(kept).toHaveLength(19);
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
    // Some append their yes_sub_title to the title, others already name it there.
    expect(batch.markets.some((m) => m.question.includes(' — '))).toBe(true);
    expect(kept.some((m) => m.yes_sub_title && m.title.includes(m.yes_sub_title))).toBe(true);

    const georgia = batch.observations.find((o) => o.marketId === 'kalshi:KXMARMAD-26-UGA')!;
    const raw = markets.find((m) => m.ticker === 'KXMARMAD-26-UGA')!;
    expect(georgia).toEqual({ marketId: 'kalshi:KXMARMAD-26-UGA', prob: Number(raw.last_price_dollars), volume24h: Math.round(Number(raw.volume_24h_fp)), observedAt: NOW });
    expect(georgia.volume24h).toBeGreaterThan(0);
  });

  withShared('the open-markets page as recorded (envelope and cursor): unpriced combos are skipped, not invalid', async () => {
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
    expect(recorded.markets.every((m) => expectedProb(m) === undefined)).toBe(true);
    expect(batch).toEqual({ kind: 'prediction', markets: [], observations: [], problems: { invalid: 0, examples: [] } });
  });
});

describe('hand-made pages', () => {
  const pages: Record<string, string> = { '': 'markets_cursor_page1.json', c2: 'markets_cursor_page2.json', c3: 'markets_cursor_page3.json' };
  const paged = route((url) => {
    const file = pages[url.searchParams.get('cursor') ?? ''];
    return file ? { body: ownFixture(`kalshi/${file}`) } : { status: 500, body: '{"error":"page 4 must not be asked for"}' };
  });

  it('follows the cursor for at most 3 pages, maps both schemas, skips unpriced and settled markets, counts invalid ones', async () => {
    const { batch, requests } = await pollConnector(connector, paged, { now: NOW });
    // Page 3 still has a cursor ("c4"): the connector stops there.
    expect(requests.map((r) => r.searchParams.get('cursor'))).toEqual([null, 'c2', 'c3']);
    for (const r of requests) expect(r.searchParams.get('status')).toBe('open');

    expect(batch.observations).toEqual([
      { marketId: 'kalshi:KXFIX-26-A', prob: 0.42, volume24h: 1500, observedAt: NOW }, // legacy cents
      { marketId: 'kalshi:KXFIX-26-B', prob: 0.22, volume24h: 12927, observedAt: NOW }, // no trade: mid of 0.20/0.24
      { marketId: 'kalshi:KXFIX-26-C', prob: 0.11, volume24h: 6, observedAt: NOW }, // dollars/fp win over cents
      { marketId: 'kalshi:KXFIX-26-G', prob: 0.335, volume24h: 0, observedAt: NOW },
      { marketId: 'kalshi:KXPAGE-27', prob: 0.77, volume24h: 301, observedAt: NOW }, // page 2, status "open"
      { marketId: 'kalshi:KXPAGE-28', prob: 0.325, volume24h: 7, observedAt: NOW }, // page 3, cents mid
    ]);
    expect(batch.markets).toEqual([
      { id: 'kalshi:KXFIX-26-A', source: 'kalshi', question: 'Will A happen in 2026?', url: 'https://kalshi.com/markets/kxfix-26', topic: 'economics' },
      { id: 'kalshi:KXFIX-26-B', source: 'kalshi', question: 'Who will win the fixture cup? — Team B', url: 'https://kalshi.com/markets/kxfix-26', topic: null },
      { id: 'kalshi:KXFIX-26-C', source: 'kalshi', question: 'Both schemas at once', url: 'https://kalshi.com/markets/kxfix-26', topic: null },
      { id: 'kalshi:KXFIX-26-G', source: 'kalshi', question: 'Will Georgia win?', url: 'https://kalshi.com/markets/kxfix-26', topic: null },
      { id: 'kalshi:KXPAGE-27', source: 'kalshi', question: 'Will the second page be read?', url: 'https://kalshi.com/markets/kxpage-27', topic: null },
      { id: 'kalshi:KXPAGE-28', source: 'kalshi', question: 'Will the third page be read?', url: 'https://kalshi.com/markets/kxpage-28', topic: null },
    ]);
    // F has no title, I has a garbled price; D (never traded), E (finalized) and H (closed) are skipped, not invalid.
    expect(batch.problems.invalid).toBe(2);
    expect(batch.problems.examples).toHaveLength(2);
  });

  it('stops at an empty or missing cursor', async () => {
    for (const last of [{ cursor: '' }, { cursor: null }, {}]) {
      const { batch, requests } = await pollConnector(connector, route(json({ markets: [], ...last })), { now: NOW });
      expect(requests).toHaveLength(1);
      expect(batch).toEqual({ kind: 'prediction', markets: [], observations: [], problems: { invalid: 0, examples: [] } });
    }
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

  it('a page that changed shape fails the whole poll, even after a good first page', async () => {
    const routes = route((url) => (url.searchParams.get('cursor') ? json({ items: [] }) : { body: ownFixture('kalshi/markets_cursor_page1.json') }));
    await expect(pollConnector(connector, routes, { now: NOW })).rejects.toMatchObject({ failure: 'schema' });
  });
});
