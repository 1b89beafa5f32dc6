/**
 * The Manifold connector, field by field: on the real recording in ../shared, served by the
 * loopback upstream (skipped with a message where absent), and on this repository's small
 * hand-made fixture (everywhere): binary, unresolved, still open markets only.
 */
import { createManifoldConnector } from '../../src/upstream/connectors/manifold.js';
import { UpstreamError } from '../../src/upstream/errors.js';
import { pollConnector } from '../support/connectors.js';
import { ownFixture, recordedFixture, sharedFixture, withShared } from '../support/upstream-fixtures.js';
import type { UpstreamRoute } from '../support/upstream-server.js';

interface RawManifold {
  id: string;
  question: string;
  url: string;
  outcomeType: string;
  probability?: number;
  volume24Hours?: number;
  isResolved?: boolean;
  closeTime?: number;
  lastUpdatedTime?: number;
}

const NOW = Date.UTC(2026, 0, 31, 18, 10); // closeTime of `mfClosesNow` in the hand-made fixture
const connector = createManifoldConnector();
const route = (body: Buffer | string) => [{ path: '/v0/markets', reply: { body } }];
/** Manifold's paging over a list, newest first: `limit` markets after the one whose id is `before`. */
const pagedRoute = (list: { id: string }[]): UpstreamRoute[] => [
  {
    path: '/v0/markets',
    reply: (url) => {
      const before = url.searchParams.get('before');
      const start = before === null ? 0 : list.findIndex((m) => m.id === before) + 1;
      return { body: JSON.stringify(list.slice(start, start + Number(url.searchParams.get('limit')))) };
    },
  },
];

/** The expected mapping of a raw market list at `now`: open binary markets, the rest counted by reason. */
function expected(raw: RawManifold[], now: number) {
  const binary = raw.filter((m) => m.outcomeType === 'BINARY');
  const isClosed = (m: RawManifold) => m.isResolved === true || (m.closeTime !== undefined && m.closeTime <= now);
  const kept = binary.filter((m) => !isClosed(m));
  const skipped = Object.fromEntries(
    Object.entries({ not_binary: raw.length - binary.length, closed: binary.filter(isClosed).length }).filter(([, n]) => n > 0),
  );
  return { kept, skipped };
}

async function checkFieldByField(raw: RawManifold[], now: number, connectorUnderTest = connector) {
  const { batch, requests } = await pollConnector(connectorUnderTest, pagedRoute(raw), { now });
  const { kept, skipped } = expected(raw, now);
  expect(batch.problems).toEqual({ invalid: 0, examples: [] });
  expect(batch.skipped).toEqual(skipped);
  expect(batch.complete).toBe(true);
  expect(batch.markets.map((m) => m.id)).toEqual(kept.map((m) => `manifold:${m.id}`));
  kept.forEach((m, i) => {
    expect(batch.markets[i]).toEqual({ id: `manifold:${m.id}`, source: 'manifold', question: m.question.trim(), url: m.url, topic: null });
    expect(batch.observations[i]).toEqual({
      marketId: `manifold:${m.id}`,
      prob: round4(m.probability!),
      volume24h: Math.round(m.volume24Hours ?? 0),
      observedAt: now,
      sourceMove24hPts: null, // Manifold reports no 24-hour change
    });
  });
  return { batch, requests, kept };
}
const round4 = (p: number) => Math.round(p * 10_000) / 10_000;

it('declares its source, kind, default base URL and polling interval', () => {
  expect(connector).toMatchObject({ source: 'manifold', kind: 'prediction', defaultBaseUrl: 'https://api.manifold.markets', pollMs: 120_000 });
});

it('maps the recorded excerpt (runs everywhere): open binary markets field by field, the others counted by reason', async () => {
  const raw = JSON.parse(recordedFixture('manifold/markets_excerpt_2026-01-31.json').toString()) as RawManifold[];
  const now = Math.max(...raw.map((m) => m.lastUpdatedTime ?? 0));
  const { batch, requests } = await checkFieldByField(raw, now);
  expect(requests.map((r) => r.pathname + r.search)).toEqual(['/v0/markets?limit=500']);
  expect(batch.skipped.closed).toBeGreaterThan(0);
  expect(batch.skipped.not_binary).toBeGreaterThan(0);
  expect(batch.observations.some((o) => o.volume24h > 0)).toBe(true);
});

withShared('maps the real recording: binary, unresolved, still open markets, field by field', async () => {
  const raw = JSON.parse(sharedFixture('manifold/v0_markets_limit500_2026-01-31.json').toString()) as RawManifold[];
  // The poll time: the recording's newest update.
  const now = Math.max(...raw.map((m) => m.lastUpdatedTime ?? 0));
  const { batch, requests, kept } = await checkFieldByField(raw, now);
  // 500 markets fill the first page of 500: the second page (before the last id) is empty.
  expect(requests.map((r) => r.pathname + r.search)).toEqual(['/v0/markets?limit=500', `/v0/markets?limit=500&before=${raw.at(-1)!.id}`]);
  // 309 binary markets, 83 of them resolved, some closed by then; the other kinds are not invalid.
  expect(raw.filter((m) => m.outcomeType === 'BINARY')).toHaveLength(309);
  expect(kept.length).toBeGreaterThan(200);
  expect(kept.length).toBeLessThan(309 - 83);
  expect(batch.skipped.not_binary).toBe(500 - 309);
});

withShared('stops at the tracked bound: with a bound of 300 it asks for 300 markets and no more', async () => {
  const raw = JSON.parse(sharedFixture('manifold/v0_markets_limit500_2026-01-31.json').toString()) as RawManifold[];
  const now = Math.max(...raw.map((m) => m.lastUpdatedTime ?? 0));
  const { requests } = await checkFieldByField(raw.slice(0, 300), now, createManifoldConnector({ maxMarkets: 300 }));
  expect(requests.map((r) => r.search)).toEqual(['?limit=300']);
});

describe('hand-made fixture', () => {
  it('keeps open binary markets; filters other kinds, resolved and closed ones; counts the invalid ones', async () => {
    const { batch } = await pollConnector(connector, route(ownFixture('manifold/markets_filters.json')), { now: NOW });
    expect(batch.markets).toEqual([
      {
        id: 'manifold:mfKeep',
        source: 'manifold',
        question: 'Will this binary market be kept?',
        url: 'https://manifold.markets/fixture/binary-kept',
        topic: null,
      },
      { id: 'manifold:mfNoClose', source: 'manifold', question: 'Without a close time?', url: 'https://manifold.markets/fixture/no-close', topic: null },
      {
        id: 'manifold:mfClosesLater',
        source: 'manifold',
        question: 'Closing a millisecond after the poll?',
        url: 'https://manifold.markets/fixture/closes-later',
        topic: null,
      },
    ]);
    expect(batch.observations).toEqual([
      { marketId: 'manifold:mfKeep', prob: 0.3142, volume24h: 1235, observedAt: NOW, sourceMove24hPts: null },
      { marketId: 'manifold:mfNoClose', prob: 0.5, volume24h: 0, observedAt: NOW, sourceMove24hPts: null },
      { marketId: 'manifold:mfClosesLater', prob: 0.8, volume24h: 3, observedAt: NOW, sourceMove24hPts: null },
    ]);
    // A probability of 7 and a missing URL are invalid; multiple choice, poll, resolved and closed
    // (including one closing exactly at the poll time) are filtered, not counted.
    expect(batch.problems.invalid).toBe(2);
  });

  it.each([
    ['an object instead of a list', '{"markets": []}'],
    ['a string', '"maintenance"'],
  ])('fails the poll with a schema UpstreamError on %s', async (_name, body) => {
    const error = await pollConnector(connector, route(body), { now: NOW }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ source: 'manifold', failure: 'schema', retryable: false });
  });

  it('an empty list is an empty batch', async () => {
    const { batch } = await pollConnector(connector, route('[]'), { now: NOW });
    expect(batch).toMatchObject({
      kind: 'prediction',
      source: 'manifold',
      markets: [],
      observations: [],
      problems: { invalid: 0, examples: [] },
      skipped: {},
      complete: true,
    });
  });
});
