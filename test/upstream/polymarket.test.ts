/**
 * The Polymarket (Gamma) connector, field by field: on the real recordings in ../shared, served by
 * the loopback upstream (skipped with a message where absent), and on this repository's small
 * hand-made fixture (everywhere). The two real snapshots replayed through the movement detector
 * must give exactly the movements computed here from the raw JSON.
 */
import { MovementDetector } from '../../src/prediction/movement-detector.js';
import { createPolymarketConnector } from '../../src/upstream/connectors/polymarket.js';
import { UpstreamError } from '../../src/upstream/errors.js';
import { pollConnector } from '../support/connectors.js';
import type { UpstreamRoute } from '../support/upstream-server.js';
import { ownFixture, recordedFixture, sharedFixture, withShared } from '../support/upstream-fixtures.js';

interface RawGamma {
  id: string;
  question: string;
  slug: string;
  outcomePrices: string;
  volume24hr?: number;
  oneDayPriceChange?: number;
  active?: boolean;
  closed?: boolean;
  archived?: boolean;
  updatedAt: string;
  events?: { slug?: string }[];
}

const SNAPSHOT_0110 = 'polymarket/gamma_markets_active_limit100_2026-01-10.json';
const SNAPSHOT_0131 = 'polymarket/gamma_markets_active_limit500_2026-01-31.json';
const NOW = Date.UTC(2026, 0, 31, 18, 10);

const connector = createPolymarketConnector();
const route = (body: Buffer | string) => [{ path: '/markets', reply: { body } }];
/** Gamma's paging over a list: `limit` items from `offset`. */
const pagedRoute = (list: unknown[]): UpstreamRoute[] => [
  {
    path: '/markets',
    reply: (url) => {
      const offset = Number(url.searchParams.get('offset') ?? 0);
      return { body: JSON.stringify(list.slice(offset, offset + Number(url.searchParams.get('limit')))) };
    },
  },
];
const PAGE = '/markets?active=true&closed=false&order=volume24hr&ascending=false';

/** The whole recordings (../shared) and this repository's excerpts of them (everywhere). */
const SNAPSHOTS = [
  { file: SNAPSHOT_0110, test: withShared, read: sharedFixture },
  { file: SNAPSHOT_0131, test: withShared, read: sharedFixture },
  { file: 'polymarket/gamma_markets_excerpt_2026-01-10.json', test: it, read: recordedFixture },
  { file: 'polymarket/gamma_markets_excerpt_2026-01-31.json', test: it, read: recordedFixture },
];

const readSnapshot = (file: string, read: (file: string) => Buffer = sharedFixture) => {
  const body = read(file);
  const raw = JSON.parse(body.toString()) as RawGamma[];
  // The snapshot's date: its newest `updatedAt` (Gamma writes microseconds; milliseconds are enough).
  const takenAt = Math.max(...raw.map((m) => Date.parse(m.updatedAt.replace(/(\.\d{3})\d*Z$/, '$1Z'))));
  return { body, raw, takenAt };
};

/** The first outcome price in basis points, straight from the JSON-encoded string. */
const firstPriceBp = (m: RawGamma): number => Math.round(Number((JSON.parse(m.outcomePrices) as string[])[0]) * 10_000);

it('declares its source, kind, default base URL and polling interval', () => {
  expect(connector).toMatchObject({ source: 'polymarket', kind: 'prediction', defaultBaseUrl: 'https://gamma-api.polymarket.com', pollMs: 60_000 });
});

describe.each(SNAPSHOTS)('the real Gamma recording $file', ({ file, test, read }) => {
  test('maps every market field by field', async () => {
    const { raw, takenAt } = readSnapshot(file, read);
    expect(Number.isFinite(takenAt)).toBe(true);
    const { batch, requests } = await pollConnector(connector, pagedRoute(raw), { now: takenAt });

    // Pages of 500 until one comes back short: 100 markets take one request, 500 take two.
    const pages = Math.floor(raw.length / 500) + 1;
    expect(requests.map((r) => r.pathname + r.search)).toEqual(Array.from({ length: pages }, (_, i) => `${PAGE}&limit=500&offset=${i * 500}`));
    expect(batch.complete).toBe(true);
    expect(batch.skipped).toEqual({});
    // All recorded markets are open, active and well formed: every one maps, none is invalid.
    expect(batch.kind).toBe('prediction');
    expect(batch.problems).toEqual({ invalid: 0, examples: [] });
    expect(batch.markets.map((m) => m.id)).toEqual(raw.map((m) => `polymarket:${m.id}`));
    expect(batch.observations).toHaveLength(raw.length);

    raw.forEach((m, i) => {
      expect(batch.markets[i]).toEqual({
        id: `polymarket:${m.id}`,
        source: 'polymarket',
        question: m.question.trim(), // a few recorded questions end with a space
        url: `https://polymarket.com/event/${m.events![0]!.slug}`,
        topic: null, // neither the markets nor their events carry a category or tags in these snapshots
      });
      expect(batch.observations[i]).toEqual({
        marketId: `polymarket:${m.id}`,
        prob: firstPriceBp(m) / 10_000,
        volume24h: Math.round(m.volume24hr ?? 0),
        observedAt: takenAt,
        // Gamma's own 24-hour change, a fraction of 1, in points.
        sourceMove24hPts: m.oneDayPriceChange === undefined ? null : m.oneDayPriceChange * 100,
      });
    });
    // About half the markets carry oneDayPriceChange; the others leave the move to our history.
    expect(raw.some((m) => m.oneDayPriceChange === undefined) && raw.some((m) => m.oneDayPriceChange !== undefined)).toBe(true);
    // Some markets have no volume24hr at all: they read as 0, not as invalid.
    expect(raw.some((m) => m.volume24hr === undefined)).toBe(true);
  });
});

it('the excerpts of the 01-10 then 01-31 snapshots give exactly the 13 movements computed from the raw JSON', async () => {
  // The excerpts keep every market of both snapshots that moved by more than 5 points (the whole
  // recordings are replayed through the service in test/integration/gamma-replay.test.ts).
  const first = readSnapshot('polymarket/gamma_markets_excerpt_2026-01-10.json', recordedFixture);
  const second = readSnapshot('polymarket/gamma_markets_excerpt_2026-01-31.json', recordedFixture);

  // Independently of the connector and the detector: markets in both snapshots whose first
  // outcome price moved by more than 5 points (500 basis points).
  const before = new Map(first.raw.map((m) => [m.id, firstPriceBp(m)]));
  const inBoth = second.raw.filter((m) => before.has(m.id));
  const expected = inBoth
    .filter((m) => Math.abs(firstPriceBp(m) - before.get(m.id)!) > 500)
    .map((m) => ({ marketId: `polymarket:${m.id}`, oldPct: before.get(m.id)! / 100, newPct: firstPriceBp(m) / 100 }));
  expect(inBoth).toHaveLength(16); // of 60 in the whole recordings: the 13 movers and 3 that moved less
  expect(expected).toHaveLength(13);

  const detector = new MovementDetector();
  const movements = [];
  for (const snapshot of [first, second]) {
    const { batch } = await pollConnector(connector, pagedRoute(snapshot.raw), { now: snapshot.takenAt });
    movements.push(...detector.observe(batch.observations).movements);
  }

  expect(movements).toHaveLength(13);
  const idsInBoth = new Set(inBoth.map((m) => `polymarket:${m.id}`));
  for (const movement of movements) {
    expect(idsInBoth.has(movement.marketId)).toBe(true);
    expect(movement.detectedAt).toBe(second.takenAt);
  }
  const byId = (a: { marketId: string }, b: { marketId: string }) => a.marketId.localeCompare(b.marketId);
  expect(movements.map(({ marketId, oldPct, newPct }) => ({ marketId, oldPct, newPct })).sort(byId)).toEqual([...expected].sort(byId));
});

describe('hand-made Gamma fixture', () => {
  it('keeps the valid items, counts the invalid ones, skips closed, archived and inactive ones', async () => {
    const { batch } = await pollConnector(connector, route(ownFixture('polymarket/gamma_markets_mixed.json')), { now: NOW });
    expect(batch.markets).toEqual([
      {
        id: 'polymarket:910001',
        source: 'polymarket',
        question: 'Will the mapped market keep its event URL?',
        url: 'https://polymarket.com/event/mapped-event',
        topic: null,
      },
      {
        id: 'polymarket:910002',
        source: 'polymarket',
        question: 'Will a market without events use its own slug?',
        url: 'https://polymarket.com/market/own-slug',
        topic: null,
      },
      {
        id: 'polymarket:910003',
        source: 'polymarket',
        question: 'Is a decimal-string volume read?',
        url: 'https://polymarket.com/market/string-volume',
        topic: null,
      },
    ]);
    expect(batch.observations).toEqual([
      { marketId: 'polymarket:910001', prob: 0.6235, volume24h: 15235, observedAt: NOW, sourceMove24hPts: null },
      { marketId: 'polymarket:910002', prob: 0.1, volume24h: 0, observedAt: NOW, sourceMove24hPts: null },
      { marketId: 'polymarket:910003', prob: 0, volume24h: 1235, observedAt: NOW, sourceMove24hPts: null },
    ]);
    // Not JSON, an empty list, out of 0..1, not a number: four invalid; closed/archived/inactive are skipped, not invalid.
    expect(batch.problems.invalid).toBe(4);
    expect(batch.skipped).toEqual({ closed: 3 });
    expect(batch.problems.examples[0]).toMatch(/^\[3\] outcomePrices/);
  });

  it.each([
    ['an object instead of a list', '{"markets": []}'],
    ['a number', '42'],
    ['null', 'null'],
  ])('fails the poll with a schema UpstreamError on %s', async (_name, body) => {
    const error = await pollConnector(connector, route(body), { now: NOW }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ source: 'polymarket', failure: 'schema', retryable: false });
  });

  it('an empty list is an empty batch', async () => {
    const { batch } = await pollConnector(connector, route('[]'), { now: NOW });
    expect(batch).toEqual({
      kind: 'prediction',
      source: 'polymarket',
      observedAt: NOW,
      markets: [],
      observations: [],
      texts: [],
      problems: { invalid: 0, examples: [] },
      skipped: {},
      complete: true,
    });
  });

  it('takes the topic from the first event (category, else first tag label)', async () => {
    const market = (id: string, event: Record<string, unknown>) => ({
      id,
      question: `Market ${id}?`,
      slug: `m-${id}`,
      outcomePrices: '["0.5", "0.5"]',
      active: true,
      closed: false,
      events: [{ slug: `e-${id}`, ...event }],
    });
    const body = JSON.stringify([market('1', { category: 'Politics' }), market('2', { tags: [{ id: '2', label: 'Crypto', slug: 'crypto' }] })]);
    const { batch } = await pollConnector(connector, route(body), { now: NOW });
    expect(batch.markets.map((m) => m.topic?.toLowerCase())).toEqual(['politics', 'crypto']);
  });
});

describe('paging through Gamma', () => {
  /** `count` open markets, the most active first, priced 0.5 (ids from 1). */
  const generated = (count: number) =>
    Array.from({ length: count }, (_, i) => ({
      id: String(i + 1),
      question: `Generated market ${i + 1}?`,
      slug: `g-${i + 1}`,
      outcomes: '["Yes", "No"]',
      outcomePrices: '["0.5", "0.5"]',
      volume24hr: count - i,
      active: true,
      closed: false,
    }));

  it('reads pages of 500 one at a time up to the bound, waiting between pages to spread them over the poll interval', async () => {
    const bounded = createPolymarketConnector({ maxMarkets: 1_200 });
    const waits: number[] = [];
    const list = generated(1_300);
    const { batch, requests } = await pollConnector(
      bounded,
      [
        {
          path: '/markets',
          reply: (url) => {
            const offset = Number(url.searchParams.get('offset'));
            return { body: JSON.stringify(list.slice(offset, offset + Number(url.searchParams.get('limit')))) };
          },
        },
      ],
      {
        now: NOW,
        sleep: async (ms) => void waits.push(ms),
      },
    );
    expect(requests.map((r) => r.search)).toEqual([
      `?active=true&closed=false&order=volume24hr&ascending=false&limit=500&offset=0`,
      `?active=true&closed=false&order=volume24hr&ascending=false&limit=500&offset=500`,
      `?active=true&closed=false&order=volume24hr&ascending=false&limit=200&offset=1000`,
    ]);
    // Three pages over half of the 60 s interval: 10 s apart.
    expect(waits).toEqual([10_000, 10_000]);
    expect(batch.observations).toHaveLength(1_200);
    expect(batch.markets.at(-1)!.id).toBe('polymarket:1200');
    expect(batch.complete).toBe(true);
  });

  it('keeps the pages read before a rate limit, marks the answer incomplete, and asks for no page after it', async () => {
    const list = generated(1_000);
    const { batch, requests } = await pollConnector(
      connector,
      [
        {
          path: '/markets',
          reply: (url) =>
            url.searchParams.get('offset') === '0'
              ? { body: JSON.stringify(list.slice(0, 500)) }
              : { status: 429, body: '{"error":"slow down"}', headers: { 'retry-after': '30' } },
        },
      ],
      { now: NOW },
    );
    expect(requests).toHaveLength(2);
    expect(batch.observations).toHaveLength(500);
    expect(batch.complete).toBe(false);
    expect(batch.problems.examples[0]).toMatch(/^page 2: polymarket: rate limited \(HTTP 429\)/);
  });

  it('fails the poll when the first page fails: there is nothing to go on', async () => {
    const error = await pollConnector(connector, [{ path: '/markets', reply: { status: 503, body: 'busy' } }], { now: NOW }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ source: 'polymarket', failure: 'http' });
  });
});

describe('what a Gamma market says beyond its price', () => {
  const market = (fields: Record<string, unknown>) => ({
    id: '1',
    question: 'Lakers vs. Celtics',
    slug: 'lakers-celtics',
    outcomePrices: '["0.62", "0.38"]',
    active: true,
    closed: false,
    ...fields,
  });
  const pollOne = async (fields: Record<string, unknown>) => (await pollConnector(connector, route(JSON.stringify([market(fields)])), { now: NOW })).batch;

  it.each([
    ['named outcomes: the first one, which the price is for', { outcomes: '["Lakers", "Celtics"]' }, 'Lakers vs. Celtics (Lakers)'],
    ['Yes/No outcomes: the question as it is', { question: 'Will the Lakers win?', outcomes: '["Yes", "No"]' }, 'Will the Lakers win?'],
    ['no outcomes field: the question as it is', {}, 'Lakers vs. Celtics'],
    ['unreadable outcomes: the question as it is, the market kept', { outcomes: 'not json' }, 'Lakers vs. Celtics'],
  ])('question with %s', async (_name, fields, question) => {
    const batch = await pollOne(fields);
    expect(batch.markets.map((m) => m.question)).toEqual([question]);
    expect(batch.problems.invalid).toBe(0);
  });

  it.each([
    [0.3245, 32.45],
    [-0.0555, -5.55],
    [0.0015, 0.15],
  ])('oneDayPriceChange %p is a move of %p points, unrounded', async (change, points) => {
    const batch = await pollOne({ oneDayPriceChange: change });
    expect(batch.observations[0]!.sourceMove24hPts).toBeCloseTo(points, 12);
  });
});
