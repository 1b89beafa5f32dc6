/** `links judge` and `links claims` in process: JSON Lines in, one line out per line in, in order; a bad line answers an error. */
import { PassThrough, Readable } from 'node:stream';
import { claimLines, judgeLines } from '../../../src/cli/links-judging.js';

async function run(command: typeof judgeLines, lines: string[]): Promise<unknown[]> {
  const output = new PassThrough();
  const chunks: string[] = [];
  output.on('data', (chunk: Buffer) => chunks.push(chunk.toString('utf8')));
  await command(Readable.from([lines.join('\n')]), output);
  return chunks
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

const kalshi = {
  venue: 'kalshi',
  id: 'KXBTCD-26MAY1204-T82399.99',
  question: 'Bitcoin price on May 12, 2026 at 4am EDT? — $82,400 or above',
  rules: '',
  close_time: '2026-05-12T08:00:00Z',
};
const poly = { venue: 'polymarket', id: '2238873', question: 'Bitcoin above 82,400 on May 12, 4AM ET?', rules: '', close_time: '2026-05-12 08:32:09+00' };

describe('links judge', () => {
  it('answers each pair in order, extra keys ignored, a malformed line with its number, a blank line skipped', async () => {
    const out = await run(judgeLines, [
      JSON.stringify({ a: kalshi, b: poly, label: 'same', note: 'ignored' }),
      '{"a": ',
      '',
      JSON.stringify({ a: kalshi, b: { ...poly, close_time: 'soon' } }),
      JSON.stringify({ a: poly, b: kalshi }),
    ]);
    expect(out).toHaveLength(4);
    expect(out[0]).toMatchObject({ a: kalshi.id, b: poly.id, relation: 'same', missing: [] });
    expect((out[0] as { evidence: unknown[] }).evidence[0]).toEqual({ aspect: 'subject', a: 'BTC', b: 'BTC', agrees: true });
    expect((out[0] as { basis_risk: string[] }).basis_risk.length).toBeGreaterThan(0);
    expect(out[0]).not.toHaveProperty('implies');
    expect(out[1]).toEqual({ line: 2, error: expect.stringMatching(/^not JSON: /) });
    expect(out[2]).toEqual({ line: 4, error: expect.stringMatching(/^b: not a market: close_time: not a time/) });
    expect(out[3]).toMatchObject({ a: poly.id, b: kalshi.id, relation: 'same' });
  });

  it('states implies for a related pair', async () => {
    const higher = { ...poly, id: 'higher', question: 'Bitcoin above 90,000 on May 12, 4AM ET?' };
    const [line] = await run(judgeLines, [JSON.stringify({ a: higher, b: poly })]);
    expect(line).toMatchObject({ relation: 'related', implies: 'a_implies_b' });
  });
});

describe('links claims', () => {
  it("answers the issue's examples exactly, with ISO times and the tracked symbol", async () => {
    const market = (id: string, question: string) => JSON.stringify({ venue: 'manifold', id, question, rules: '', close_time: '2026-01-31T12:00:00Z' });
    const out = await run(claimLines, [
      market('m1', 'Will Bitcoin exceed $90,500 USD at 22:00 UTC on January 28, 2026?'),
      market('m2', 'Will TSLA close at or above $450 EOD Jan 30, 2026?'),
      market('m3', 'Will Bitcoin go up in the next 24 hours?'),
      market('m4', 'Will Gold hit $6,000 per ounce in 2026?'),
      '[]',
    ]);
    expect(out).toEqual([
      { id: 'm1', claim: { asset: 'BTC', symbol: 'BTC/USD', comparator: 'above', threshold: 90500, kind: 'at', until: '2026-01-28T22:00:00Z' } },
      { id: 'm2', claim: { asset: 'TSLA', symbol: 'TSLA/USD', comparator: 'at_or_above', threshold: 450, kind: 'close', until: '2026-01-30T21:00:00Z' } },
      { id: 'm3', claim: null },
      {
        id: 'm4',
        claim: {
          asset: 'XAU',
          symbol: null,
          comparator: 'at_or_above',
          threshold: 6000,
          kind: 'touch',
          from: '2026-01-01T05:00:00Z',
          until: '2027-01-01T05:00:00Z',
        },
      },
      { line: 5, error: expect.stringMatching(/^not a market/) },
    ]);
  });
});
