/**
 * Asking a language model about a pair the rules left `unresolved` (only where LLM_BASE_URL is
 * set): the question put to it, and how its answer is taken. The answer is recorded as the model's
 * (`decidedBy: model`), and it never overrides evidence: a model that says `same` or `inverse` where
 * an aspect the rules compared disagrees is not believed, and the pair stays `unresolved`.
 */
import { z } from 'zod';
import type { LinkRelation, LinkVerdict, MarketText } from '../domain/links.js';

export const MODEL_SYSTEM_PROMPT = [
  'You compare two prediction-market contracts from two venues and say how their YES outcomes settle.',
  'Answer with one JSON object and nothing else: {"relation": "...", "why": "..."}.',
  'relation is "same" when YES on A settles with YES on B in every ordinary outcome; "inverse" when YES on A is NO on B',
  'in every ordinary outcome and no third outcome exists; "related" for the same subject with another proposition;',
  '"different" otherwise; "unresolved" when the texts do not allow a verdict. When in doubt, answer "unresolved".',
  'why is one sentence naming the deciding difference or agreement.',
].join(' ');

const describe = (side: string, m: MarketText) =>
  [
    `${side} (${m.venue} ${m.id})`,
    `question: ${m.question}`,
    `rules: ${m.rules || '(none published)'}`,
    `closes: ${m.closeTime === null ? 'not stated' : new Date(m.closeTime).toISOString()}`,
    ...(m.yesSide ? [`YES stands for: ${m.yesSide}`] : []),
  ].join('\n');

/** The user message: both markets' texts and what the rules could not settle. */
export function modelPrompt(a: MarketText, b: MarketText, rules: LinkVerdict): string {
  return [describe('A', a), '', describe('B', b), '', `The rules could not decide; missing: ${rules.missing.join('; ') || 'not stated'}.`].join('\n');
}

const Answer = z.object({ relation: z.enum(['same', 'inverse', 'related', 'different', 'unresolved']), why: z.string().trim().min(1).max(500) });

/** The first JSON object in the model's text, checked; undefined when there is none or it is malformed. */
export function parseModelAnswer(text: string): { relation: LinkRelation; why: string } | undefined {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) return undefined;
  try {
    const parsed = Answer.safeParse(JSON.parse(text.slice(start, end + 1)));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The verdict to record from the model's answer, or undefined to keep the rules' `unresolved`:
 * an unreadable or undecided answer, or a `same`/`inverse` that an aspect's disagreement contradicts.
 */
export function verdictFromModel(rules: LinkVerdict, answer: { relation: LinkRelation; why: string } | undefined): LinkVerdict | undefined {
  if (!answer || answer.relation === 'unresolved') return undefined;
  const settlesTogether = answer.relation === 'same' || answer.relation === 'inverse';
  if (settlesTogether && rules.evidence.some((e) => e.agrees === false)) return undefined;
  return { relation: answer.relation, evidence: rules.evidence, basisRisk: [...rules.basisRisk, `decided by a language model: ${answer.why}`], missing: [] };
}
