/** A model's answer about an unresolved pair: read from its text, recorded as its own, never over disagreeing evidence. */
import type { LinkVerdict } from '../../../src/domain/links.js';
import { modelPrompt, parseModelAnswer, verdictFromModel } from '../../../src/links/model-question.js';

const rules = (agrees: (boolean | null)[]): LinkVerdict => ({
  relation: 'unresolved',
  evidence: agrees.map((a, i) => ({ aspect: i === 0 ? 'subject' : 'mechanism', a: 'x', b: 'y', agrees: a })),
  basisRisk: [],
  missing: ['the meeting'],
});

it('reads the first JSON object of the answer, and nothing else', () => {
  expect(parseModelAnswer('Sure. {"relation": "same", "why": "Both settle on the December FOMC decision."} Hope that helps')).toEqual({
    relation: 'same',
    why: 'Both settle on the December FOMC decision.',
  });
  for (const text of ['same', '{"relation": "identical", "why": "x"}', '{"relation": "same"}', '{"relation": "same", "why": ""}', '{not json}', '}{']) {
    expect(parseModelAnswer(text)).toBeUndefined();
  }
});

it("records the answer as the model's, keeping the rules' evidence, with its reason as basis risk", () => {
  expect(verdictFromModel(rules([true, null]), { relation: 'same', why: 'one meeting' })).toEqual({
    relation: 'same',
    evidence: rules([true, null]).evidence,
    basisRisk: ['decided by a language model: one meeting'],
    missing: [],
  });
  expect(verdictFromModel(rules([true, false]), { relation: 'related', why: 'another meeting' })?.relation).toBe('related');
});

it('keeps the pair unresolved when the model is unsure, unreadable, or says same or inverse where evidence disagrees', () => {
  expect(verdictFromModel(rules([true]), undefined)).toBeUndefined();
  expect(verdictFromModel(rules([true]), { relation: 'unresolved', why: 'unclear' })).toBeUndefined();
  expect(verdictFromModel(rules([true, false]), { relation: 'same', why: 'looks alike' })).toBeUndefined();
  expect(verdictFromModel(rules([false, true]), { relation: 'inverse', why: 'opposite' })).toBeUndefined();
});

it("puts both markets' texts and what is missing in the question", () => {
  const a = { venue: 'kalshi', id: 'K1', question: 'Fed cut in Dec?', rules: 'If the Fed cuts...', closeTime: Date.UTC(2026, 11, 16), yesSide: 'Cut' };
  const b = { venue: 'polymarket', id: 'P1', question: 'Will the Fed cut?', rules: '', closeTime: null };
  const prompt = modelPrompt(a, b, rules([true]));
  for (const part of [
    'A (kalshi K1)',
    'If the Fed cuts...',
    '2026-12-16T00:00:00.000Z',
    'YES stands for: Cut',
    'B (polymarket P1)',
    'rules: (none published)',
    'closes: not stated',
    'missing: the meeting',
  ]) {
    expect(prompt).toContain(part);
  }
});
