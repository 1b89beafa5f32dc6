/**
 * `npm run links:eval -- FILE [--overrule FILE]`: judges every pair of a labelled JSON Lines file
 * (`{"a": MARKET, "b": MARKET, "label"}`, labels same, same_inverted, different, unresolved) and prints
 * per label the verdicts, the precision of same+inverse, the recall of same, and every disagreement.
 * `--overrule` reads a JSON array of `{"a", "b", "was", "label", "why"}`: labels known to be wrong.
 */
import fs from 'node:fs';
import { EVAL_LABELS, type EvalLabel, evaluate, type LabelledPair, type Overrule } from '../src/links/evaluate.js';
import { marketTextFromJson } from '../src/links/market-json.js';
import { parseArgs } from 'node:util';

function readPairs(file: string): { pairs: LabelledPair[]; errors: string[] } {
  const pairs: LabelledPair[] = [];
  const errors: string[] = [];
  fs.readFileSync(file, 'utf8')
    .split('\n')
    .forEach((text, index) => {
      if (!text.trim()) return;
      try {
        const json = JSON.parse(text) as { a: unknown; b: unknown; label: unknown };
        if (!EVAL_LABELS.includes(json.label as EvalLabel)) throw new Error(`label ${JSON.stringify(json.label)} is not one of ${EVAL_LABELS.join(', ')}`);
        pairs.push({ line: index + 1, a: marketTextFromJson(json.a), b: marketTextFromJson(json.b), label: json.label as EvalLabel });
      } catch (error) {
        errors.push(`line ${index + 1}: ${(error as Error).message}`);
      }
    });
  return { pairs, errors };
}

function main(argv: string[]): number {
  const usage = 'usage: npm run links:eval -- FILE [--overrule FILE]\n';
  let parsed: ReturnType<typeof parseArgs<{ options: { overrule: { type: 'string' } }; allowPositionals: true }>>;
  try {
    // Strict: a misspelt option (`--overrules`) is refused, not ignored.
    parsed = parseArgs({ args: argv, options: { overrule: { type: 'string' } }, allowPositionals: true });
  } catch (error) {
    process.stderr.write(`links:eval: ${(error as Error).message}\n${usage}`);
    return 2;
  }
  const overruleFile = parsed.values.overrule;
  const [file, ...extra] = parsed.positionals;
  if (!file || extra.length > 0) {
    process.stderr.write(usage);
    return 2;
  }
  const { pairs, errors } = readPairs(file);
  const overrules: Overrule[] = overruleFile ? JSON.parse(fs.readFileSync(overruleFile, 'utf8')) : [];
  const report = evaluate(pairs, overrules);
  const out: string[] = [`${file}: ${report.pairs} pairs${overruleFile ? `, ${report.overrulesApplied} labels overruled (${overruleFile})` : ''}`];
  for (const error of errors) out.push(`  skipped ${error}`);
  out.push('', 'label -> verdicts');
  for (const [label, counts] of Object.entries(report.byLabel)) {
    out.push(
      `  ${label.padEnd(14)} ${Object.entries(counts)
        .map(([relation, n]) => `${relation} ${n}`)
        .join(', ')}`,
    );
  }
  const pct = (x: number | null) => (x === null ? 'n/a' : x.toFixed(3));
  out.push('', `precision of same+inverse: ${pct(report.precision)} (${report.settlingRight} of ${report.settling})`);
  out.push(`recall of same: ${pct(report.recall)} (${report.sameFound} of ${report.sameLabelled})`);
  out.push('', `disagreements (${report.disagreements.length}; a verdict related counts as agreeing with different):`);
  for (const d of report.disagreements) {
    out.push(`  line ${d.line}  ${d.a} | ${d.b}  label ${d.label}${d.overruled ? ' (overruled)' : ''} -> ${d.verdict}: ${d.why}`);
  }
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
