/**
 * The prediction connectors keep what the market links' judge reads (docs/links.md): Polymarket's
 * description, resolution source and end date; Kalshi's rules, strike and times; Manifold's close
 * time. Checked field by field against this repository's excerpts of the real recordings.
 */
import { createKalshiConnector } from '../../src/upstream/connectors/kalshi.js';
import { createManifoldConnector } from '../../src/upstream/connectors/manifold.js';
import { createPolymarketConnector } from '../../src/upstream/connectors/polymarket.js';
import { pollConnector } from '../support/connectors.js';
import { recordedFixture } from '../support/upstream-fixtures.js';

const ms = (iso: string | null | undefined) => (iso ? Date.parse(iso) : null);

it('Polymarket: description, resolution source, end date and the first outcome as the YES side', async () => {
  const body = recordedFixture('polymarket/gamma_markets_excerpt_2026-01-31.json');
  const raw = JSON.parse(body.toString()) as {
    id: string;
    question: string;
    description?: string;
    resolutionSource?: string;
    endDate?: string;
    outcomes?: string;
  }[];
  const { batch } = await pollConnector(createPolymarketConnector(), [{ path: '/markets', reply: { body } }], { now: Date.UTC(2026, 0, 31) });
  expect(batch.texts.length).toBe(batch.markets.length);
  expect(batch.texts.length).toBeGreaterThan(5);
  for (const text of batch.texts) {
    const r = raw.find((m) => m.id === text.id)!;
    expect(text).toEqual({
      venue: 'polymarket',
      id: r.id,
      question: r.question.trim(),
      rules: r.description ?? '',
      closeTime: ms(r.endDate),
      resolutionSource: r.resolutionSource || null,
      yesSide: r.outcomes ? (JSON.parse(r.outcomes) as string[])[0] : null,
    });
  }
  expect(batch.texts.every((t) => t.rules.includes('resolve'))).toBe(true);
});

it('Kalshi: both rules, strike fields, close and expiration times, the YES side', async () => {
  // The excerpt is the page's market list; the page around it is Kalshi's envelope.
  const raw = JSON.parse(recordedFixture('kalshi/markets_legacy_excerpt_2025-10-31.json').toString()) as Record<string, unknown>[];
  const body = JSON.stringify({ markets: raw, cursor: '' });
  const { batch } = await pollConnector(createKalshiConnector(), [{ path: '/trade-api/v2/markets', reply: { body } }], { now: Date.UTC(2025, 9, 31) });
  expect(batch.texts.length).toBe(batch.markets.length);
  expect(batch.texts.length).toBeGreaterThan(2);
  for (const text of batch.texts) {
    const r = raw.find((m) => m.ticker === text.id)!;
    expect(text).toEqual({
      venue: 'kalshi',
      id: r.ticker,
      question: r.title,
      rules: [r.rules_primary, r.rules_secondary].filter(Boolean).join('\n\n'),
      closeTime: ms(r.close_time as string),
      expiryTime: ms(r.expiration_time as string),
      strike: { type: r.strike_type, floor: r.floor_strike ?? null, cap: r.cap_strike ?? null },
      yesSide: r.yes_sub_title,
    });
    expect(text.rules).toMatch(/resolves to Yes/);
  }
});

it('Manifold: the question and its close time (its list carries no description)', async () => {
  const body = recordedFixture('manifold/markets_excerpt_2026-01-31.json');
  const raw = JSON.parse(body.toString()) as { id: string; closeTime?: number }[];
  const { batch } = await pollConnector(createManifoldConnector(), [{ path: '/v0/markets', reply: { body } }], { now: Date.UTC(2026, 0, 31) });
  expect(batch.texts.length).toBe(batch.markets.length);
  for (const text of batch.texts) {
    expect(text).toMatchObject({ venue: 'manifold', rules: '', closeTime: raw.find((m) => m.id === text.id)!.closeTime ?? null });
  }
});
