/**
 * The labelled pairs of ../shared/links/pairs-dev.jsonl, read at run time; its gate is test/support/gates.ts's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MarketText } from '../../../src/domain/links.js';
import type { EvalLabel, LabelledPair, Overrule } from '../../../src/links/evaluate.js';
import { marketTextFromJson } from '../../../src/links/market-json.js';
import { gated, LINKS_DEV_SET } from '../../support/gates.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const DEV_SET = LINKS_DEV_SET;
export const OVERRULES = path.join(ROOT, 'test/fixtures/recorded/links/pairs-dev-overrules.json');

/** `it` where the dev set exists, `it.skip` elsewhere (test/support/gates.ts: with REQUIRE_SERVICES=1 its absence fails). */
export const withDevSet: jest.It = gated('links dev set');

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
