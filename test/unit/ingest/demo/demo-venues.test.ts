/**
 * The demo's other venues show market links offline: listings share a blocking key with their base
 * market, and the real judge finds each relation among them (none is declared by the demo).
 */
import { createDemoPredictionFeed } from '../../../../src/ingest/demo/prediction/feed.js';
import { DEMO_LISTINGS, listingTexts } from '../../../../src/ingest/demo/prediction/venues.js';
import { blockingKeys } from '../../../../src/links/blocking.js';
import { judgePair } from '../../../../src/links/judge.js';

const NOW = Date.UTC(2026, 10, 29, 9, 0, 0);
const feed = createDemoPredictionFeed({ seed: 7, now: NOW });
const texts = new Map(feed.texts!().map((t) => [`${t.venue}:${t.id}`, t]));

const verdictOf = (venue: string, id: string) => {
  const listing = DEMO_LISTINGS.find((l) => l.venue === venue && l.id === id)!;
  return judgePair(texts.get(`demo:${listing.base}`)!, texts.get(`${venue}:${id}`)!);
};

it('declares each listing as a market of its venue, with its texts', () => {
  const metas = feed.markets();
  for (const l of DEMO_LISTINGS) expect(metas).toContainEqual(expect.objectContaining({ id: `${l.venue}:${l.id}`, source: l.venue, question: l.question }));
  expect(listingTexts()).toHaveLength(DEMO_LISTINGS.length);
  expect(new Set(metas.map((m) => m.source))).toEqual(new Set(['demo', 'demo-exchange', 'demo-crowd']));
});

it('gives every listing a blocking key of its base market, so the linker judges the pair', () => {
  for (const l of DEMO_LISTINGS) {
    const base = new Set(blockingKeys(texts.get(`demo:${l.base}`)!));
    expect(blockingKeys(texts.get(`${l.venue}:${l.id}`)!).some((k) => base.has(k))).toBe(true);
  }
});

it('shows each relation: the same question, YES on the other side, related, a near miss, and one the texts leave open', () => {
  expect(verdictOf('demo-exchange', 'KXBTCMAX-26DEC31-150000').relation).toBe('same');
  expect(verdictOf('demo-exchange', 'KXETHD-26DEC3112-T4999.99').relation).toBe('same');
  expect(verdictOf('demo-crowd', 'sb-lxi-chiefs').relation).toBe('same');
  expect(verdictOf('demo-exchange', 'KXNBAGAME-26DEC25BOSOKC-OKC').relation).toBe('inverse');
  expect(verdictOf('demo-crowd', 'btc-175k-2026')).toMatchObject({ relation: 'related', implies: 'b_implies_a' });
  expect(verdictOf('demo-crowd', 'eth-5k-dec31-4pm').relation).toBe('related');
  expect(verdictOf('demo-crowd', 'house-2026-gop').relation).toBe('different');
  expect(verdictOf('demo-exchange', 'KXFEDDECISION-26DEC-CUT').relation).toBe('unresolved');
});

it('moves each listing with its base market: the same question within a few points, the other side mirrored', () => {
  const history = feed.backfill();
  const at = history.at(-1)!.observedAt;
  const now = new Map(history.filter((o) => o.observedAt === at).map((o) => [o.marketId, o.prob]));
  const gap = (venue: string, id: string, base: string, mirrored = false) => {
    const p = now.get(`${venue}:${id}`)!;
    return Math.abs((mirrored ? 1 - p : p) - now.get(`demo:${base}`)!);
  };
  expect(gap('demo-exchange', 'KXBTCMAX-26DEC31-150000', 'btc-150k-2026')).toBeLessThanOrEqual(0.0451);
  expect(gap('demo-exchange', 'KXNBAGAME-26DEC25BOSOKC-OKC', 'nba-xmas-bos-okc', true)).toBeLessThanOrEqual(0.0451);
  expect(gap('demo-crowd', 'sb-lxi-chiefs', 'sb-lxi-chiefs')).toBeLessThanOrEqual(0.0451);
});
