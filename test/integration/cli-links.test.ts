/**
 * `links` in a private SQLite DATA_DIR: judge and claims read JSON Lines (the contract), run by the
 * built bin as other tools run it; list/confirm/reject review what is stored, run in-process
 * (cli-in-process.ts: the same command tree, output and exit code, without a Node start-up each).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createStore, openStore } from '../../src/store/index.js';
import { type CliResult, runCli } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';

let dataDir: string;
/** The bin, a process of its own. */
const bin = (...args: string[]) => runCli(args, { DATA_DIR: dataDir });
const cli = (...args: string[]) => runCliInProcess(args, { DATA_DIR: dataDir });
const jsonLines = (r: CliResult) =>
  r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const A = 'kalshi:KXFEDDECISION-26DEC-CUT';
const B = 'polymarket:5501';

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mgw-cli-links-'));
  const store = createStore(await openStore({ dataDir }));
  await store.prediction.upsertMarkets([
    { id: A, source: 'kalshi', question: 'Fed decision in Dec 2026? — Cut', url: 'https://kalshi.com/markets/kxfeddecision', topic: null },
    { id: B, source: 'polymarket', question: 'Will the Fed cut rates in December 2026?', url: 'https://polymarket.com/market/fed', topic: null },
  ]);
  await store.prediction.recordObservations([
    { marketId: A, prob: 0.4, volume24h: 100, observedAt: Date.now() },
    { marketId: B, prob: 0.42, volume24h: 100, observedAt: Date.now() },
  ]);
  await store.marketLinks.replaceVerdicts(
    A,
    [{ otherId: B, verdict: { relation: 'unresolved', evidence: [], basisRisk: [], missing: ['the meeting on one venue'] }, decidedBy: 'rules' }],
    Date.now(),
  );
  await store.connection.close();
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

it('judge and claims: one JSON line out per line in, in order, a malformed line answered with an error', async () => {
  const input = path.join(dataDir, 'claims.jsonl');
  const market = (id: string, question: string, close_time: string) => JSON.stringify({ venue: 'manifold', id, question, rules: '', close_time });
  fs.writeFileSync(
    input,
    [
      market('m1', 'Will Bitcoin exceed $90,500 USD at 22:00 UTC on January 28, 2026?', '2026-01-28T22:00:00Z'),
      'not json',
      market('m2', 'Will TSLA close at or above $450 EOD Jan 30, 2026?', '2026-01-30T23:59:00Z'),
      market('m3', 'Will Bitcoin go up in the next 24 hours?', '2026-01-31T14:23:57Z'),
    ].join('\n'),
  );
  const claims = await bin('links', 'claims', '--input', input);
  expect(claims.code).toBe(0);
  expect(jsonLines(claims)).toEqual([
    { id: 'm1', claim: { asset: 'BTC', symbol: 'BTC/USD', comparator: 'above', threshold: 90_500, kind: 'at', until: '2026-01-28T22:00:00Z' } },
    { line: 2, error: expect.any(String) },
    { id: 'm2', claim: { asset: 'TSLA', symbol: 'TSLA/USD', comparator: 'at_or_above', threshold: 450, kind: 'close', until: '2026-01-30T21:00:00Z' } },
    { id: 'm3', claim: null },
  ]);

  const pairs = path.join(dataDir, 'pairs.jsonl');
  const kalshi = {
    venue: 'kalshi',
    id: 'KXBTCD-26MAY1204-T82399.99',
    question: 'Bitcoin price on May 12, 2026 at 4am EDT? — $82,400 or above',
    rules: '',
    close_time: '2026-05-12T08:00:00Z',
  };
  const poly = { venue: 'polymarket', id: '2238873', question: 'Bitcoin above 82,400 on May 12, 4AM ET?', rules: '', close_time: '2026-05-12 08:32:09+00' };
  fs.writeFileSync(pairs, `${JSON.stringify({ a: kalshi, b: poly })}\n{"a": 1}\n`);
  const judged = await bin('links', 'judge', '--input', pairs);
  expect(judged.code).toBe(0);
  const [verdict, bad] = jsonLines(judged);
  expect(verdict).toMatchObject({ a: kalshi.id, b: poly.id, relation: 'same', missing: [] });
  expect(Object.keys(verdict!).sort()).toEqual(['a', 'b', 'basis_risk', 'evidence', 'missing', 'relation']);
  expect(bad).toEqual({ line: 2, error: expect.any(String) });
});

it('list, confirm and reject: a decision is stored over the verdict; mistakes are one line, never a stack', async () => {
  const unresolved = await cli('links', 'list', '--relation', 'unresolved', '--json');
  expect(unresolved.code).toBe(0);
  expect(JSON.parse(unresolved.stdout)).toEqual([
    expect.objectContaining({ a: A < B ? A : B, b: A < B ? B : A, relation: 'unresolved', decided_by: 'rules', missing: ['the meeting on one venue'] }),
  ]);

  const confirmed = await cli('links', 'confirm', B, A, '--as', 'same', '--json');
  expect(confirmed.code).toBe(0);
  expect(JSON.parse(confirmed.stdout)).toMatchObject({ a: B, b: A, relation: 'same', decided_by: 'operator' });
  expect(JSON.parse((await cli('links', 'list', '--relation', 'unresolved', '--json')).stdout)).toEqual([]);
  const table = await cli('links', 'list');
  expect(table.stdout).toMatch(/same\s+operator/);

  expect((await cli('links', 'reject', A, B)).stdout).toBe(`rejected: ${A} and ${B} are not linked\n`);
  expect(JSON.parse((await cli('links', 'list', '--json')).stdout)).toEqual([]);
  expect(JSON.parse((await cli('links', 'list', '--relation', 'different', '--json')).stdout)).toEqual([
    expect.objectContaining({ relation: 'different', decided_by: 'operator' }),
  ]);

  const mistakes = [
    [['confirm', A, 'kalshi:NOPE', '--as', 'same'], /no prediction market with id kalshi:NOPE/],
    [['confirm', A, A, '--as', 'inverse'], /not linked to itself/],
    [['confirm', A, B], /--as/],
    [['confirm', A, B, '--as', 'maybe'], /Allowed choices are same, inverse, related/],
  ] as const;
  const results = await Promise.all(mistakes.map(([args]) => cli('links', ...args)));
  for (const [i, r] of results.entries()) {
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(mistakes[i]![1]);
    expect(r.stderr).not.toContain('    at ');
  }
});
