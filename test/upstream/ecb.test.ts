/**
 * The ECB reference-rate connector against the spec: every derived pair field by field on the real
 * history in ../shared (served zipped and unzipped; skipped with a message where absent), and on
 * small hand-made CSVs (everywhere) for N/A, malformed rows, header changes, backfill depth and
 * the observedAt clamp.
 */
import { zipSync } from 'fflate';
import type { Candle, Quote } from '../../src/domain/market.js';
import { createEcbConnector } from '../../src/upstream/connectors/ecb.js';
import { pollConnector } from '../support/connectors.js';
import { ownFixture, sharedFixture, withShared } from '../support/upstream-fixtures.js';
import type { UpstreamReply } from '../support/upstream-server.js';

const DAY_MS = 86_400_000;
const LATER = Date.UTC(2026, 11, 1, 12); // after every fixture's newest date

/** The pairs the spec names: symbol, name, numerator and denominator as EUR rates (`EUR` = 1). */
const PAIRS: [string, string, string, string][] = [
  ['EUR/USD', 'Euro / US Dollar', 'USD', 'EUR'],
  ['EUR/GBP', 'Euro / British Pound', 'GBP', 'EUR'],
  ['EUR/JPY', 'Euro / Japanese Yen', 'JPY', 'EUR'],
  ['EUR/CHF', 'Euro / Swiss Franc', 'CHF', 'EUR'],
  ['GBP/USD', 'British Pound / US Dollar', 'USD', 'GBP'],
  ['USD/JPY', 'US Dollar / Japanese Yen', 'JPY', 'USD'],
  ['USD/CHF', 'US Dollar / Swiss Franc', 'CHF', 'USD'],
  ['AUD/USD', 'Australian Dollar / US Dollar', 'USD', 'AUD'],
  ['USD/CAD', 'US Dollar / Canadian Dollar', 'CAD', 'USD'],
  ['NZD/USD', 'New Zealand Dollar / US Dollar', 'USD', 'NZD'],
  ['USD/CNY', 'US Dollar / Chinese Yuan', 'CNY', 'USD'],
];

/** change24h: percent, unrounded (the API rounds what it shows, once). */
const pct = (from: number, to: number): number => ((to - from) / from) * 100;
const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The test's own reading of an ECB CSV: per pair, the (date, derived rate) series newest first. */
function expectedSeries(csv: string): Map<string, { date: string; rate: number }[]> {
  const [head, ...lines] = csv.trim().split(/\r?\n/);
  const cols = head!.split(',');
  const rows = lines
    .map((l) => l.split(','))
    .filter((c) => /^\d{4}-\d{2}-\d{2}$/.test(c[0]!) && c.slice(1).every((v) => v === '' || v === 'N/A' || Number.isFinite(Number(v))));
  const rate = (cells: string[], ccy: string): number | undefined => {
    if (ccy === 'EUR') return 1;
    const v = cells[cols.indexOf(ccy)];
    return v === undefined || v === 'N/A' || v === '' ? undefined : Number(v);
  };
  return new Map(
    PAIRS.map(([symbol, , num, den]) => [
      symbol,
      rows.flatMap((cells) => {
        const n = rate(cells, num);
        const d = rate(cells, den);
        // Derived rates are the plain quotient: rounded only where the API shows them.
        return n === undefined || d === undefined ? [] : [{ date: cells[0]!, rate: n / d }];
      }),
    ]),
  );
}

const serve = (reply: UpstreamReply) => [{ path: '/eurofxref-hist.zip', reply }];
const of = <T extends { symbol: string }>(items: T[], symbol: string): T[] => items.filter((i) => i.symbol === symbol);

describe('ecb connector', () => {
  it('declares itself as the spec says', () => {
    const connector = createEcbConnector();
    expect({ source: connector.source, kind: connector.kind, pollMs: connector.pollMs, defaultBaseUrl: connector.defaultBaseUrl }).toEqual({
      source: 'ecb',
      kind: 'market-data',
      pollMs: 3_600_000,
      defaultBaseUrl: 'https://www.ecb.europa.eu/stats/eurofxref',
    });
    expect(connector.symbols).toEqual(PAIRS.map(([s]) => s));
  });

  describe('on the real history (1999-01-04 .. 2025-05-09, newest first)', () => {
    const load = () => sharedFixture('ecb/eurofxref-hist_1999-01-04_to_2025-05-09.csv');

    withShared.each([
      ['zipped, as the ECB serves it', true],
      ['unzipped, as a proxy may serve it', false],
    ])('maps every pair field by field (%s)', async (_how, zipped) => {
      const raw = load();
      const body = zipped ? zipSync({ 'eurofxref-hist.csv': new Uint8Array(raw) }) : raw;
      const { batch, requests } = await pollConnector(createEcbConnector(), serve({ body, contentType: zipped ? 'application/zip' : 'text/csv' }), {
        now: LATER,
        backfill: true,
      });

      expect(requests.map((r) => r.pathname)).toEqual(['/eurofxref-hist.zip']);
      expect(batch.kind).toBe('market-data');
      expect(batch.problems).toEqual({ invalid: 0, examples: [] });
      expect(batch.markets).toEqual(PAIRS.map(([symbol, name]) => ({ symbol, name, type: 'forex', source: 'ecb', staleAfterMs: 4 * DAY_MS, halted: false })));

      const expected = expectedSeries(raw.toString('utf8'));
      // The newest row: 2025-05-09, USD 1.1252, GBP 0.8477 (spot checks of the reading above).
      expect(expected.get('EUR/USD')![0]).toEqual({ date: '2025-05-09', rate: 1.1252 });
      expect(expected.get('GBP/USD')![0]).toEqual({ date: '2025-05-09', rate: 1.1252 / 0.8477 });

      for (const [symbol] of PAIRS) {
        const series = expected.get(symbol)!;
        const [latest, previous] = series;
        expect(of(batch.quotes, symbol)).toEqual<Quote[]>([
          {
            symbol,
            price: latest!.rate,
            change24h: pct(previous!.rate, latest!.rate),
            volume24h: 0,
            observedAt: Date.parse(`${latest!.date}T15:00:00Z`),
          },
        ]);
        const candles = of(batch.candles, symbol);
        expect(candles).toHaveLength(300);
        // Oldest first, one per business day, flat OHLC at the fixing, no volume.
        expect(candles).toEqual<Candle[]>(
          series
            .slice(0, 300)
            .reverse()
            .map(({ date, rate }) => ({
              symbol,
              interval: '1d',
              openTime: Date.parse(`${date}T00:00:00Z`),
              open: rate,
              high: rate,
              low: rate,
              close: rate,
              volume: 0,
            })),
        );
      }
    });

    withShared('sends only the last 5 business days once backfilled', async () => {
      const raw = load();
      const { batch } = await pollConnector(createEcbConnector(), serve({ body: raw }), { now: LATER, backfill: false });
      const expected = expectedSeries(raw.toString('utf8'));
      for (const [symbol] of PAIRS) {
        expect(of(batch.candles, symbol).map((c) => isoDay(c.openTime))).toEqual(
          expected
            .get(symbol)!
            .slice(0, 5)
            .map((d) => d.date)
            .reverse(),
        );
      }
      expect(of(batch.candles, 'EUR/USD').map((c) => isoDay(c.openTime))).toEqual(['2025-05-05', '2025-05-06', '2025-05-07', '2025-05-08', '2025-05-09']);
      expect(batch.quotes).toHaveLength(PAIRS.length);
    });
  });

  describe('on small hand-made CSVs', () => {
    const week = ownFixture('ecb/eurofxref-hist-week.csv');

    it('derives the crosses unrounded, skipping a pair only on the dates its rate is N/A', async () => {
      const { batch } = await pollConnector(createEcbConnector(), serve({ body: week }), { now: LATER, backfill: true });
      const quote = (symbol: string) => of(batch.quotes, symbol)[0];

      // 2026-11-24: USD 1.16, JPY 175.2, GBP N/A, CNY 8.25, AUD 1.78 (23rd: USD 1.155).
      expect(quote('EUR/USD')).toEqual({
        symbol: 'EUR/USD',
        price: 1.16,
        change24h: pct(1.155, 1.16),
        volume24h: 0,
        observedAt: Date.parse('2026-11-24T15:00:00Z'),
      });
      expect(quote('USD/JPY')!.price).toBe(175.2 / 1.16);
      expect(quote('USD/CNY')!.price).toBe(8.25 / 1.16);
      expect(quote('AUD/USD')!.price).toBe(1.16 / 1.78);

      // GBP is N/A on the newest date: GBP/USD and EUR/GBP quote Monday's fixing, changed against Friday's.
      expect(quote('GBP/USD')).toEqual({
        symbol: 'GBP/USD',
        price: 1.155 / 0.879,
        change24h: pct(1.15 / 0.877, 1.155 / 0.879),
        volume24h: 0,
        observedAt: Date.parse('2026-11-23T15:00:00Z'),
      });
      expect(quote('EUR/GBP')).toMatchObject({ price: 0.879, change24h: pct(0.877, 0.879), observedAt: Date.parse('2026-11-23T15:00:00Z') });

      // Seven valid business days (the 18th and the badly dated row are dropped); GBP pairs lack the 24th.
      const days = (symbol: string) => of(batch.candles, symbol).map((c) => isoDay(c.openTime));
      const all = ['2026-11-13', '2026-11-16', '2026-11-17', '2026-11-19', '2026-11-20', '2026-11-23', '2026-11-24'];
      expect(days('EUR/USD')).toEqual(all);
      expect(days('USD/JPY')).toEqual(all);
      expect(days('GBP/USD')).toEqual(all.slice(0, -1));
      expect(days('EUR/GBP')).toEqual(all.slice(0, -1));
      // BGN's N/A on the 19th concerns no pair: nothing is lost that day.
      expect(days('USD/CHF')).toContain('2026-11-19');

      const expected = expectedSeries(week.toString('utf8'));
      for (const [symbol] of PAIRS) {
        expect(of(batch.candles, symbol).map((c) => c.close)).toEqual(
          expected
            .get(symbol)!
            .map((d) => d.rate)
            .reverse(),
        );
      }
    });

    it('skips and counts malformed rows (a rate that is not a number, a date that is not ISO)', async () => {
      const { batch } = await pollConnector(createEcbConnector(), serve({ body: week }), { now: LATER, backfill: true });
      expect(batch.problems.invalid).toBe(2);
      expect(batch.problems.examples).toEqual([expect.stringMatching(/line 6: bad USD rate/), expect.stringMatching(/line 8: bad date/)]);
    });

    it('sends 5 business days per pair after the backfill, and every row (up to 300) on it', async () => {
      const connector = createEcbConnector();
      const recent = await pollConnector(connector, serve({ body: week }), { now: LATER, backfill: false });
      expect(of(recent.batch.candles, 'EUR/USD').map((c) => isoDay(c.openTime))).toEqual([
        '2026-11-17',
        '2026-11-19',
        '2026-11-20',
        '2026-11-23',
        '2026-11-24',
      ]);
      expect(of(recent.batch.candles, 'GBP/USD').map((c) => isoDay(c.openTime))).toEqual([
        '2026-11-16',
        '2026-11-17',
        '2026-11-19',
        '2026-11-20',
        '2026-11-23',
      ]);
      // The quotes do not depend on the depth.
      const full = await pollConnector(connector, serve({ body: week }), { now: LATER, backfill: true });
      expect(recent.batch.quotes).toEqual(full.batch.quotes);
      expect(full.batch.candles).toHaveLength(7 * 9 + 6 * 2);
    });

    it('caps the backfill at the last 300 business days', async () => {
      // 320 business days ending Friday 2026-11-20, newest first as the ECB writes them.
      const dates: string[] = [];
      for (let t = Date.UTC(2026, 10, 20); dates.length < 320; t -= DAY_MS) {
        const weekday = new Date(t).getUTCDay();
        if (weekday !== 0 && weekday !== 6) dates.push(isoDay(t));
      }
      const body = [
        'Date,USD,JPY,GBP,CHF,AUD,CAD,NZD,CNY,',
        ...dates.map((d, i) => `${d},${(1.1 + i / 10_000).toFixed(4)},170.00,0.8500,0.9400,1.7000,1.6000,2.0000,8.0000,`),
      ].join('\n');
      const connector = createEcbConnector();
      const full = await pollConnector(connector, serve({ body }), { now: LATER, backfill: true });
      const eurusd = of(full.batch.candles, 'EUR/USD');
      expect(eurusd).toHaveLength(300);
      expect(isoDay(eurusd[0]!.openTime)).toBe(dates[299]);
      expect(isoDay(eurusd.at(-1)!.openTime)).toBe('2026-11-20');
      expect(eurusd.at(-1)!.close).toBe(1.1);
      expect(full.batch.candles).toHaveLength(300 * PAIRS.length);
      const recent = await pollConnector(connector, serve({ body }), { now: LATER, backfill: false });
      expect(recent.batch.candles).toHaveLength(5 * PAIRS.length);
    });

    it('never stamps a fixing later than now', async () => {
      const now = Date.parse('2026-11-24T10:00:00Z'); // the 24th's fixing is stamped 15:00, not yet
      const { batch } = await pollConnector(createEcbConnector(), serve({ body: week }), { now, backfill: false });
      expect(of(batch.quotes, 'EUR/USD')[0]!.observedAt).toBe(now);
      expect(of(batch.quotes, 'GBP/USD')[0]!.observedAt).toBe(Date.parse('2026-11-23T15:00:00Z'));
    });

    it('takes the CSV out of a zip that holds other files too', async () => {
      const body = zipSync({ 'README.txt': new TextEncoder().encode('rates per 1 EUR'), 'eurofxref-hist.csv': new Uint8Array(week) });
      const { batch } = await pollConnector(createEcbConnector(), serve({ body, contentType: 'application/zip' }), { now: LATER, backfill: false });
      expect(of(batch.quotes, 'EUR/USD')[0]!.price).toBe(1.16);
    });

    it.each<[string, string | Uint8Array, string]>([
      ['a header without USD', ownFixture('ecb/eurofxref-hist-no-usd.csv').toString('utf8'), 'schema'],
      ['a header without Date (SDMX names it TIME_PERIOD)', 'TIME_PERIOD,USD,JPY,\n2026-11-24,1.1600,175.20,\n', 'schema'],
      ['a zip without a CSV', zipSync({ 'eurofxref-hist.xml': new TextEncoder().encode('<xml/>') }), 'schema'],
      ['a damaged zip', 'PK\u0003\u0004 not really a zip', 'parse'],
    ])('fails the poll on %s', async (_what, body, failure) => {
      await expect(pollConnector(createEcbConnector(), serve({ body }), { now: LATER })).rejects.toMatchObject({
        name: 'UpstreamError',
        source: 'ecb',
        failure,
      });
    });
  });
});

describe('strict cells', () => {
  it('skips a row with an impossible date and a rate that is not a plain decimal', async () => {
    const body = ['Date,USD,GBP,', '2026-11-27,1.1600,0.8800,', '2026-11-31,1.1700,0.8800,', '2026-11-26,0x1,0.8800,', '2026-11-25,1.1500,0.8700,'].join('\n');
    const { batch } = await pollConnector(createEcbConnector(), [{ path: '/eurofxref-hist.zip', reply: { body } }], { now: Date.UTC(2026, 11, 1) });
    expect(batch.candles.filter((c) => c.symbol === 'EUR/USD').map((c) => new Date(c.openTime).toISOString().slice(0, 10))).toEqual([
      '2026-11-25',
      '2026-11-27',
    ]);
    expect(batch.problems.invalid).toBe(2);
  });
});
