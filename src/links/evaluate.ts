/**
 * Scoring the judge against a labelled set: per label the verdicts, the precision of `same` and
 * `inverse` (a verdict counts as right only where the label is that relation), the recall of `same`,
 * and every disagreement. Labels can be overruled, each with its reason, where a label is wrong.
 */
import type { LinkRelation, LinkVerdict, MarketText } from '../domain/links.js';
import { judgePair } from './judge.js';

export const EVAL_LABELS = ['same', 'same_inverted', 'different', 'unresolved'] as const;
export type EvalLabel = (typeof EVAL_LABELS)[number];

export interface LabelledPair {
  line: number;
  a: MarketText;
  b: MarketText;
  label: EvalLabel;
}

export interface Overrule {
  a: string;
  b: string;
  /** The label as published. */
  was: EvalLabel;
  label: EvalLabel;
  why: string;
}

export interface Disagreement {
  line: number;
  a: string;
  b: string;
  label: EvalLabel;
  overruled: boolean;
  verdict: LinkRelation;
  why: string;
}

export interface EvalReport {
  pairs: number;
  byLabel: Record<string, Partial<Record<LinkRelation, number>>>;
  /** Verdicts `same` or `inverse`, and how many of them the label confirms. */
  settling: number;
  settlingRight: number;
  precision: number | null;
  sameLabelled: number;
  sameFound: number;
  recall: number | null;
  disagreements: Disagreement[];
  overrulesApplied: number;
}

/** The relation a label names (`same_inverted` is `inverse`). */
export const relationOfLabel = (label: EvalLabel): LinkRelation => (label === 'same_inverted' ? 'inverse' : label);

/** Whether a verdict agrees with a label: `related` agrees with `different` (the labels have no `related`). */
export function agreesWithLabel(verdict: LinkRelation, label: EvalLabel): boolean {
  return verdict === relationOfLabel(label) || (label === 'different' && verdict === 'related');
}

/** The verdict's reason in a line: the aspects that disagree, else what is missing. */
export function shortWhy(verdict: LinkVerdict): string {
  const against = verdict.evidence.filter((e) => e.agrees === false).map((e) => `${e.aspect}: ${e.a ?? '-'} | ${e.b ?? '-'}`);
  if (verdict.missing.length > 0) return `missing ${verdict.missing.join('; ')}`;
  if (against.length > 0) return against.join('; ');
  return verdict.basisRisk.length > 0 ? `basis risk: ${verdict.basisRisk.join('; ')}` : 'every aspect agrees';
}

export function evaluate(pairs: readonly LabelledPair[], overrules: readonly Overrule[] = []): EvalReport {
  const byId = new Map(overrules.map((o) => [`${o.a}\u0000${o.b}`, o]));
  const report: EvalReport = {
    pairs: 0,
    byLabel: {},
    settling: 0,
    settlingRight: 0,
    precision: null,
    sameLabelled: 0,
    sameFound: 0,
    recall: null,
    disagreements: [],
    overrulesApplied: 0,
  };
  for (const pair of pairs) {
    const overrule = byId.get(`${pair.a.id}\u0000${pair.b.id}`);
    const applies = overrule !== undefined && overrule.was === pair.label;
    const label = applies ? overrule.label : pair.label;
    if (applies) report.overrulesApplied += 1;
    const verdict = judgePair(pair.a, pair.b);
    report.pairs += 1;
    const counts = report.byLabel[label] ?? {};
    report.byLabel[label] = counts;
    counts[verdict.relation] = (counts[verdict.relation] ?? 0) + 1;
    if (verdict.relation === 'same' || verdict.relation === 'inverse') {
      report.settling += 1;
      if (relationOfLabel(label) === verdict.relation) report.settlingRight += 1;
    }
    if (label === 'same') {
      report.sameLabelled += 1;
      if (verdict.relation === 'same') report.sameFound += 1;
    }
    if (!agreesWithLabel(verdict.relation, label)) {
      report.disagreements.push({ line: pair.line, a: pair.a.id, b: pair.b.id, label, overruled: applies, verdict: verdict.relation, why: shortWhy(verdict) });
    }
  }
  report.precision = report.settling === 0 ? null : report.settlingRight / report.settling;
  report.recall = report.sameLabelled === 0 ? null : report.sameFound / report.sameLabelled;
  return report;
}

/** Verdicts `same`/`inverse` whose (overruled) label is another relation: what precision first forbids. */
export const falseSettling = (report: EvalReport): Disagreement[] => report.disagreements.filter((d) => d.verdict === 'same' || d.verdict === 'inverse');
