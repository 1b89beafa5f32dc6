/** The judge: what two markets are to each other, from their texts alone. */
import { LINK_ASPECTS, type LinkVerdict, type MarketText } from '../domain/links.js';

export function judgePair(_a: MarketText, _b: MarketText): LinkVerdict {
  return {
    relation: 'unresolved',
    evidence: LINK_ASPECTS.map((aspect) => ({ aspect, a: null, b: null, agrees: null })),
    basisRisk: [],
    missing: ['the rules are not written yet'],
  };
}
