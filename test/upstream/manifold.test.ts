/**
 * The Manifold connector, field by field: on the real recording in ../shared, served by the
 * loopback upstream (skipped with a message where absent), and on this repository's small
 * hand-made fixture (everywhere): binary, unresolved, still open markets only.
 */
import { createManifoldConnector } from '../../src/upstream/connectors/manifold.js';
import { UpstreamError } from '../../src/upstream/errors.js';
import { pollConnector } from '../support/connectors.js';
import { ownFixture, sharedFixture, withShared } from '../support/upstream-fixtures.js';

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
const round4 = (p: number) => Math.round(p * 10_000) / 10_000;

it('declares its source, kind, default base URL and polling interval', () => {
  expect(connector).toMatchObject({ source: 'manifold', kind: 'prediction', defaultBaseUrl: 'https://api.manifold.markets', pollMs: 120_000 });
});

withShared('maps the real recording: binary, unresolved, still open markets, field by field', async () => {
  const body = sharedFixture('manifold/v0_markets_limit500_2026-01-31.json');
  const raw = JSON.parse(body.toString()) as RawManifold[];
  // The poll time: the recording's newest update.
  const now = Math.max(...raw.map((m) => m.lastUpdatedTime ?? 0));
  const { batch, requests } = await pollConnector(connector, route(body), { now });

  expect(requests.map((r) => r.pathname + r.search)).toEqual(['/v0/markets?limit=500']);
  const kept = raw.filter((m) => m.outcomeType === 'BINARY' && !m.isResolved && (m.closeTime === undefined || m.closeTime > now));
  // 309 binary markets, 83 of them resolved, some closed by then; the other kinds are not invalid.
  expect(raw.filter((m) => m.outcomeType === 'BINARY')).toHaveLength(309);
  expect(kept.length).toBeGreaterThan(200);
  expect(kept.length).toBeLessThan(309 - 83);
  expect(batch.problems).toEqual({ invalid: 0, examples: [] });
  expect(batch.markets.map((m) => m.id)).toEqual(kept.map((m) => `manifold:${m.id}`));
  kept.forEach((m, i) => {
    expect(batch.markets[i]).toEqual({ id: `manifold:${m.id}`, source: 'manifold', question: m.question.trim(), url: m.url, topic: null });
    expect(batch.observations[i]).toEqual({
      marketId: `manifold:${m.id}`,
      prob: round4(m.probability!),
      volume24h: Math.round(m.volume24Hours ?? 0),
      observedAt: now,
    });
  });
  expect(batch.observations.some((o) => o.volume24h > 0)).toBe(true);
});

describe('hand-made fixture', () => {
  it('keeps open binary markets; filters other kinds, resolved and closed ones; counts the invalid ones', async () => {
    const { batch } = await pollConnector(connector, route(ownFixture('manifold/markets_filters.json')), { now: NOW });
    expect(batch.markets).toEqual([
      { id: 'manifold:mfKeep', source: 'manifold', question: 'Will this binary market be kept?', url: 'https://manifold.markets/fixture/binary-kept', topic: null },
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
      { marketId: 'manifold:mfKeep', prob: 0.3142, volume24h: 1235, observedAt: NOW },
      { marketId: 'manifold:mfNoClose', prob: 0.5, volume24h: 0, observedAt: NOW },
      { marketId: 'manifold:mfClosesLater', prob: 0.8, volume24h: 3, observedAt: NOW },
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
    expect(batch).toEqual({ kind: 'prediction', markets: [], observations: [], problems: { invalid: 0, examples: [] } });
  });
});
