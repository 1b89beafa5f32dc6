/**
 * Subscription.predictionEventSpreads over WebSocket with graphql-ws's own client: a group whose
 * spread crosses the subscriber's threshold is sent when it rises to it (UP) and when it falls back
 * (DOWN); a change that crosses no threshold of this subscriber is not sent.
 */
import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { startTestService, type TestService } from '../support/service.js';
import { within } from '../support/wait.js';

const BASE = 'demo:btc-150k-2026';
const OTHER = 'demo-exchange:KXBTCMAX-26DEC31-150000';

let t: TestService;
let client: Client;
beforeAll(async () => {
  t = await startTestService();
  await t.service.linker.settled();
  const { key } = await t.createKey('pro', 'pro');
  client = createClient({
    url: `${t.urls.b.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { Authorization: `Bearer ${key}` },
    retryAttempts: 0,
  });
});
afterAll(async () => {
  await client?.dispose();
  await t?.close();
});

interface Change {
  direction: string;
  previousSpreadPts: number;
  event: { spreadPts: number; markets: { id: string }[] };
}

/** Moves the base market to `prob`, as ingest would, at the service's clock. */
function moveBase(prob: number): void {
  const market = t.service.predictions.get(BASE)!;
  t.clock.advance(1_000);
  t.service.predictions.applyObservations([{ marketId: BASE, prob, volume24h: market.volume24h, observedAt: t.clock.now() }]);
}

it('sends UP when the spread reaches the threshold and DOWN when it falls back, nothing for smaller moves', async () => {
  const other = t.service.predictions.get(OTHER)!.prob;
  const received: Change[] = [];
  const dispose = client.subscribe<{ predictionEventSpreads: Change }>(
    { query: 'subscription { predictionEventSpreads(minSpreadPts: 20) { direction previousSpreadPts event { spreadPts markets { id } } } }' },
    {
      next: (v) => received.push(v.data!.predictionEventSpreads),
      error: (e) => received.push({ direction: `error ${JSON.stringify(e)}` } as Change),
      complete: () => undefined,
    },
  );
  try {
    const high = Math.min(0.99, other + 0.4);
    /** Moves the base market and waits for the message that move causes (computations run one at a time, in order). */
    const answerTo = async (prob: number, waitMs: number) => {
      const before = received.length;
      moveBase(prob);
      await within(waitMs, () => received.length > before);
      return received.slice(before);
    };
    // The subscriber's first computation only sets where spreads stand: toggle until a move is answered.
    for (let i = 0; ; i++) {
      const answered = await answerTo(i % 2 === 0 ? high : other, 1_000).catch(() => []);
      if (answered.length > 0) break;
      if (i > 10) throw new Error('no spread change arrived');
    }
    if (received.at(-1)!.direction === 'UP') await answerTo(other, 5_000);

    const [up, ...moreUp] = await answerTo(high, 5_000);
    expect(moreUp).toEqual([]);
    expect(up).toMatchObject({ direction: 'UP' });
    expect(up!.event.markets.map((m) => m.id).sort()).toEqual([OTHER, BASE].sort());
    expect(up!.event.spreadPts).toBeGreaterThanOrEqual(20);
    expect(up!.previousSpreadPts).toBeLessThan(20);

    // A move that stays above the threshold crosses nothing: the next message is the fall back below it.
    moveBase(Math.min(0.99, other + 0.35));
    const [down, ...moreDown] = await answerTo(other + 0.01, 5_000);
    expect(moreDown).toEqual([]);
    expect(down).toMatchObject({ direction: 'DOWN' });
    expect(down!.event.spreadPts).toBeLessThan(20);
    expect(down!.previousSpreadPts).toBeGreaterThanOrEqual(20);
  } finally {
    dispose();
  }
});

it('refuses a threshold outside 0..100', async () => {
  const errors: unknown[] = [];
  await new Promise<void>((resolve) => {
    client.subscribe(
      { query: 'subscription { predictionEventSpreads(minSpreadPts: 150) { direction } }' },
      {
        next: (v) => errors.push(v.errors),
        error: (e) => {
          errors.push(e);
          resolve();
        },
        complete: resolve,
      },
    );
  });
  expect(JSON.stringify(errors)).toContain('minSpreadPts must be a number from 0 to 100');
});
