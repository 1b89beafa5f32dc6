/**
 * One rounding, seen by a client: the real ECB fixings of 2025-05-08 and 2025-05-09 (a trimmed
 * excerpt of the recording) through the ECB connector, the store and variant A. A cross's
 * `change_24h` is the exact change between the two derived rates rounded once, to the last digit
 * shown: NZD/USD -0.5548 % is -0.55 (it was -0.56 when the rates were rounded first), USD/JPY
 * 0.3446 % is 0.34 (it was 0.35). The expected values are computed here in integers from the CSV.
 */
import { recordedFixture } from '../support/upstream-fixtures.js';
import { startUpstreamServer, type UpstreamServer } from '../support/upstream-server.js';
import { bearer, startTestService, TestClock, type TestService, closeAll } from '../support/service.js';

const CSV = recordedFixture('ecb/eurofxref-hist_excerpt_2025-04-25_to_2025-05-09.csv').toString('utf8');

let upstream: UpstreamServer | undefined;
let t: TestService | undefined;
afterEach(async () => {
  await closeAll(t, upstream);
  t = upstream = undefined;
});

/** A rate as written ("1.9095") as an integer on a 10^6 grid (the ECB writes at most 4 decimals here). */
const micro = (text: string): bigint => {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
};
/** n / d to `places` decimals, halves away from zero, exactly. */
function exactRound(n: bigint, d: bigint, places: number): number {
  const negative = n < 0n !== d < 0n;
  const [an, ad] = [n < 0n ? -n : n, d < 0n ? -d : d];
  const scale = 10n ** BigInt(places);
  const magnitude = (2n * an * scale + ad) / (2n * ad);
  return (negative ? -1 : 1) * (Number(magnitude) / 10 ** places) || 0;
}

/** The percent change of numerator/denominator from the second row (2025-05-08) to the first (2025-05-09). */
function expectedChange(numerator: string, denominator: string): number {
  const [head, latest, previous] = CSV.split('\n');
  const cols = head!.split(',');
  const rate = (row: string, ccy: string) => (ccy === 'EUR' ? 1_000_000n : micro(row.split(',')[cols.indexOf(ccy)]!));
  // (n2/d2) / (n1/d1) - 1 = (n2 d1 - n1 d2) / (n1 d2)
  const [n1, d1, n2, d2] = [rate(previous!, numerator), rate(previous!, denominator), rate(latest!, numerator), rate(latest!, denominator)];
  return exactRound((n2 * d1 - n1 * d2) * 100n, n1 * d2, 2);
}

it('ECB crosses show change_24h as the two fixings give it, to the last digit shown', async () => {
  upstream = await startUpstreamServer([{ path: '/eurofxref-hist.zip', reply: { body: CSV, contentType: 'text/csv' } }]);
  t = await startTestService({
    clock: new TestClock(Date.parse('2025-05-09T16:00:00Z')),
    env: { FEEDS: 'ecb', ECB_BASE_URL: upstream.baseUrl, ECB_POLL_MS: '3600000' },
  });
  await t.service.liveFeeds.pollAll();
  const { key } = await t.createKey('pro');
  const res = await t.a.get('/api/v1/markets?type=forex&limit=100').set(bearer(key));
  expect(res.status).toBe(200);
  const shown = new Map<string, { change_24h: number; price: number }>(res.body.data.map((m: { symbol: string }) => [m.symbol, m]));

  expect(expectedChange('USD', 'NZD')).toBe(-0.55);
  expect(expectedChange('JPY', 'USD')).toBe(0.34);
  expect(shown.get('NZD/USD')!.change_24h).toBe(-0.55);
  expect(shown.get('USD/JPY')!.change_24h).toBe(0.34);
  for (const [symbol, numerator, denominator] of [
    ['EUR/USD', 'USD', 'EUR'],
    ['GBP/USD', 'USD', 'GBP'],
    ['USD/CHF', 'CHF', 'USD'],
    ['AUD/USD', 'USD', 'AUD'],
    ['USD/CAD', 'CAD', 'USD'],
    ['USD/CNY', 'CNY', 'USD'],
  ] as const) {
    expect([symbol, shown.get(symbol)!.change_24h]).toEqual([symbol, expectedChange(numerator, denominator)]);
  }
  // The rate itself: the exact quotient to ten significant digits (USD/JPY 163.36 / 1.1252 = 145.18307856...).
  expect(shown.get('USD/JPY')!.price).toBe(exactRound(micro('163.36') * 1_000_000n, micro('1.1252') * 1_000_000n, 7));
});
