/**
 * The labelled pairs of ../shared/links/pairs-dev.jsonl, read at run time. Where ../shared is absent the
 * tests that need it skip and say so; with REQUIRE_SERVICES=1 (CI) its absence fails instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MarketText } from '../../../src/domain/links.js';
import type { EvalLabel, LabelledPair, Overrule } from '../../../src/links/evaluate.js';
import { marketTextFromJson } from '../../../src/links/market-json.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const DEV_SET = path.resolve(ROOT, '../shared/links/pairs-dev.jsonl');
export const OVERRULES = path.join(ROOT, 'test/fixtures/recorded/links/pairs-dev-overrules.json');
export const devSetPresent = fs.existsSync(DEV_SET);

if (!devSetPresent) {
  if (process.env.REQUIRE_SERVICES === '1') throw new Error(`REQUIRE_SERVICES=1 but ${DEV_SET} is absent`);
  console.warn(`[links] ${DEV_SET} is absent: the tests over the labelled dev set are skipped`);
}

/** `it` where the dev set exists, `it.skip` elsewhere. */
export const withDevSet: jest.It = devSetPresent ? it : it.skip;

export function devPairs(): LabelledPair[] {
  return fs
    .readFileSync(DEV_SET, 'utf8')
    .split('\n')
    .map((text, index) => ({ text, line: index + 1 }))
    .filter(({ text }) => text.trim())
    .map(({ text, line }) => {
      const json = JSON.parse(text) as { a: unknown; b: unknown; label: EvalLabel };
      return { line, a: marketTextFromJson(json.a), b: marketTextFromJson(json.b), label: json.label };
    });
}

export const devMarkets = (): MarketText[] => devPairs().flatMap((p) => [p.a, p.b]);

export const overrules = (): Overrule[] => JSON.parse(fs.readFileSync(OVERRULES, 'utf8')) as Overrule[];
