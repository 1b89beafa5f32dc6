/**
 * Building a verdict: each aspect compared once, in the order the domain lists them, with both sides'
 * values; the relation is decided by the judge that knows the kind of market, never here.
 */
import { LINK_ASPECTS, type LinkAspect, type LinkEvidence, type LinkImplication, type LinkRelation, type LinkVerdict } from '../domain/links.js';

export class VerdictBuilder {
  private readonly evidence = new Map<LinkAspect, LinkEvidence>();
  readonly basisRisk: string[] = [];
  readonly missing: string[] = [];

  /** Records an aspect; `agrees` defaults to equality of the two values when both are known. */
  compare(aspect: LinkAspect, a: string | null, b: string | null, agrees?: boolean | null): boolean | null {
    const verdict = agrees !== undefined ? agrees : a === null || b === null ? null : a === b;
    this.evidence.set(aspect, { aspect, a, b, agrees: verdict });
    return verdict;
  }

  risk(text: string): this {
    if (!this.basisRisk.includes(text)) this.basisRisk.push(text);
    return this;
  }

  lack(text: string): this {
    if (!this.missing.includes(text)) this.missing.push(text);
    return this;
  }

  verdict(relation: LinkRelation, implies?: LinkImplication): LinkVerdict {
    const evidence = LINK_ASPECTS.map((aspect) => this.evidence.get(aspect) ?? { aspect, a: null, b: null, agrees: null });
    const result: LinkVerdict = {
      relation,
      evidence,
      // Basis risk qualifies a pair that settles together; a missing fact qualifies one that could not be judged.
      basisRisk: relation === 'same' || relation === 'inverse' ? [...this.basisRisk] : [],
      missing: relation === 'unresolved' ? [...this.missing] : [],
    };
    if (implies && relation === 'related') result.implies = implies;
    return result;
  }
}

/** The implication the other way round (for a pair judged b-to-a). */
export function swapImplication(implies: LinkImplication | undefined): LinkImplication | undefined {
  if (implies === undefined) return undefined;
  return implies === 'a_implies_b' ? 'b_implies_a' : 'a_implies_b';
}
