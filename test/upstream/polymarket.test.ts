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
import { ownFixture, sharedFixture, withShared } from '../support/upstream-fixtures.js';

interface RawGamma {
  id: string;
  question: string;
  slug: string;
  outcomePrices: string;
  volume24hr?: number;
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

const readSnapshot = (file: string) => {
  const body = sharedFixture(file);
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

describe.each([SNAPSHOT_0110, SNAPSHOT_0131])('the real Gamma recording %s', (file) => {
  withShared('maps every market field by field', async () => {
    const { body, raw, takenAt } = readSnapshot(file);
    expect(Number.isFinite(takenAt)).toBe(true);
    const { batch, requests } = await pollConnector(connector, route(body), { now: takenAt });

    expect(requests.map((r) => r.pathname + r.search)).toEqual(['/markets?active=true&closed=false&order=volume24hr&ascending=false&limit=100']);
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
      });
    });
    // Some markets have no volume24hr at all: they read as 0, not as invalid.
    expect(raw.some((m) => m.volume24hr === undefined)).toBe(true);
  });
});

withShared('the 01-10 then 01-31 snapshots give exactly the 13 movements computed from the raw JSON', async () => {
  const first = readSnapshot(SNAPSHOT_0110);
  const second = readSnapshot(SNAPSHOT_0131);

  // Independently of the connector and the detector: markets in both snapshots whose first
  // outcome price moved by more than 5 points (500 basis points).
  const before = new Map(first.raw.map((m) => [m.id, firstPriceBp(m)]));
  const inBoth = second.raw.filter((m) => before.has(m.id));
  const expected = inBoth
    .filter((m) => Math.abs(firstPriceBp(m) - before.get(m.id)!) > 500)
    .map((m) => ({ marketId: `polymarket:${m.id}`, oldPct: before.get(m.id)! / 100, newPct: firstPriceBp(m) / 100 }));
  expect(inBoth).toHaveLength(60);
  expect(expected).toHaveLength(13);

  const detector = new MovementDetector();
  const movements = [];
  for (const snapshot of [first, second]) {
    const { batch } = await pollConnector(connector, route(snapshot.body), { now: snapshot.takenAt });
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
      { marketId: 'polymarket:910001', prob: 0.6235, volume24h: 15235, observedAt: NOW },
      { marketId: 'polymarket:910002', prob: 0.1, volume24h: 0, observedAt: NOW },
      { marketId: 'polymarket:910003', prob: 0, volume24h: 1235, observedAt: NOW },
    ]);
    // Not JSON, an empty list, out of 0..1, not a number: four invalid; closed/archived/inactive are not invalid.
    expect(batch.problems.invalid).toBe(4);
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
    expect(batch).toEqual({ kind: 'prediction', markets: [], observations: [], problems: { invalid: 0, examples: [] } });
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
