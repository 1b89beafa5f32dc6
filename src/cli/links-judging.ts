/**
 * `links judge` and `links claims`: JSON Lines in (stdin or --input), one JSON line out per line in,
 * in order, exit 0. A malformed line gets `{"line": N, "error": ...}` and the rest go on; a blank line
 * is skipped (it carries nothing to answer). These commands judge texts offline and never open the store.
 */
import fs from 'node:fs';
import readline from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { Command } from 'commander';
import type { LinkVerdict, MarketText, PriceClaim } from '../domain/links.js';

export function registerLinkJudging(links: Command): void {
  links
    .command('judge')
    .description('judge pairs of markets: {"a": MARKET, "b": MARKET} a line in, the verdict with its evidence a line out')
    .option('--input <file>', 'read this JSON Lines file instead of stdin')
    .action(async (options: { input?: string }) => {
      await judgeLines(openInput(options.input), process.stdout);
    });
  links
    .command('claims')
    .description('the price claim of each market: MARKET a line in, {"id", "claim"} a line out (claim null when it makes none)')
    .option('--input <file>', 'read this JSON Lines file instead of stdin')
    .action(async (options: { input?: string }) => {
      await claimLines(openInput(options.input), process.stdout);
    });
}

function openInput(file: string | undefined): Readable {
  return file ? fs.createReadStream(file, { encoding: 'utf8' }) : process.stdin;
}

/** `links judge` over streams: each line's verdict, or the line's error. */
export async function judgeLines(input: Readable, output: Writable): Promise<void> {
  const [{ judgePair }, { marketTextFromJson }] = await Promise.all([import('../links/judge.js'), import('../links/market-json.js')]);
  await eachJsonLine(input, output, (value) => {
    if (typeof value !== 'object' || value === null || !('a' in value) || !('b' in value)) throw new Error('not a pair: expected {"a": MARKET, "b": MARKET}');
    const pair = value as { a: unknown; b: unknown };
    const a = withSide('a', pair.a, marketTextFromJson);
    const b = withSide('b', pair.b, marketTextFromJson);
    return verdictJson(a, b, judgePair(a, b));
  });
}

/** `links claims` over streams: each market's claim, or the line's error. */
export async function claimLines(input: Readable, output: Writable): Promise<void> {
  const [{ priceClaim }, { marketTextFromJson }, trackedSymbol] = await Promise.all([
    import('../links/claims.js'),
    import('../links/market-json.js'),
    trackedSymbols(),
  ]);
  await eachJsonLine(input, output, (value) => {
    const market = marketTextFromJson(value);
    return { id: market.id, claim: claimJson(priceClaim(market, trackedSymbol)) };
  });
}

/** The A-side symbol the gateway tracks for an asset code (`BTC` -> `BTC/USD`), spelled as the catalogue spells it. */
async function trackedSymbols(): Promise<(asset: string) => string | null> {
  const { DEMO_MARKETS } = await import('../ingest/demo/catalogue.js');
  const tracked = new Map(DEMO_MARKETS.filter((m) => m.symbol.endsWith('/USD')).map((m) => [m.symbol.slice(0, -'/USD'.length), m.symbol]));
  return (asset) => tracked.get(asset.toUpperCase()) ?? null;
}

function withSide(side: 'a' | 'b', json: unknown, parse: (json: unknown) => MarketText): MarketText {
  try {
    return parse(json);
  } catch (error) {
    throw new Error(`${side}: ${(error as Error).message}`);
  }
}

function verdictJson(a: MarketText, b: MarketText, verdict: LinkVerdict): Record<string, unknown> {
  return {
    a: a.id,
    b: b.id,
    relation: verdict.relation,
    ...(verdict.implies ? { implies: verdict.implies } : {}),
    evidence: verdict.evidence.map((e) => ({ aspect: e.aspect, a: e.a, b: e.b, agrees: e.agrees })),
    basis_risk: verdict.basisRisk,
    missing: verdict.missing,
  };
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function claimJson(claim: PriceClaim | null): Record<string, unknown> | null {
  if (!claim) return null;
  return {
    asset: claim.asset,
    symbol: claim.symbol,
    comparator: claim.comparator,
    threshold: claim.threshold,
    ...(claim.upper !== undefined ? { upper: claim.upper } : {}),
    kind: claim.kind,
    ...(claim.from !== undefined ? { from: iso(claim.from) } : {}),
    until: iso(claim.until),
  };
}

/** Reads JSON Lines, answers each non-blank line in order; a line that fails answers `{"line", "error"}`. */
async function eachJsonLine(input: Readable, output: Writable, answer: (value: unknown) => unknown): Promise<void> {
  const lines = readline.createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber += 1;
    if (line.trim() === '') continue;
    let out: unknown;
    try {
      out = answer(JSON.parse(line));
    } catch (error) {
      const message = error instanceof SyntaxError ? `not JSON: ${error.message}` : (error as Error).message;
      out = { line: lineNumber, error: message.replace(/\s+/g, ' ') };
    }
    if (!output.write(`${JSON.stringify(out)}\n`)) await new Promise((resolve) => output.once('drain', resolve));
  }
}
