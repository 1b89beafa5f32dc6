/** A pair of markets in the store's order (`a_id` < `b_id`), and a verdict turned round to the other side. */
import type { LinkImplication, LinkVerdict } from '../domain/links.js';

/** A pair in the store's order, and whether it was turned round to get there. */
export function orderedPair(x: string, y: string): { a: string; b: string; swapped: boolean } {
  return x < y ? { a: x, b: y, swapped: false } : { a: y, b: x, swapped: true };
}

const SWAPPED_IMPLICATION: Record<LinkImplication, LinkImplication> = { a_implies_b: 'b_implies_a', b_implies_a: 'a_implies_b' };

/** The same verdict written from the other market's side. */
export function swapSides(verdict: LinkVerdict): LinkVerdict {
  return {
    ...verdict,
    implies: verdict.implies && SWAPPED_IMPLICATION[verdict.implies],
    evidence: verdict.evidence.map((e) => ({ ...e, a: e.b, b: e.a })),
  };
}

export const pairKey = (a: string, b: string) => `${a}\n${b}`;
