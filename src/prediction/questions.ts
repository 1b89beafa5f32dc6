/**
 * Questions a reader can tell apart: two markets never show the same text. Each qualifier in turn
 * labels the questions still shared by more than one market, appended as " (label)"; a qualifier
 * is given the index of the question.
 */
type Qualifier = (index: number) => string | null | undefined;

export function countEach(values: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return counts;
}

export function distinctQuestions(initial: readonly string[], qualifiers: readonly Qualifier[]): string[] {
  let questions = [...initial];
  for (const qualifier of qualifiers) {
    const counts = countEach(questions);
    if (questions.every((q) => counts.get(q) === 1)) break;
    questions = questions.map((q, i) => {
      const label = counts.get(q)! > 1 ? qualifier(i)?.trim() : undefined;
      return label ? `${q} (${label})` : q;
    });
  }
  return questions;
}
