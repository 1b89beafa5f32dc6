/**
 * Two price markets: the same asset, the same kind (an instant, a close, a touch), the same instant
 * or window, then the thresholds. A venue's price source (CF Benchmarks' index, Binance's candle) and
 * its tick ("$82,400 or above" against "above 82,400") are basis risk, not another proposition.
 */
import type { LinkImplication, LinkVerdict, MarketText, PriceClaim, PriceComparator } from '../domain/links.js';
import { findAsset } from './assets.js';
import { boundFromText, priceClaim, strikeBound } from './claims.js';
import { VerdictBuilder } from './evidence.js';
import { findDate, fold, isoInstant } from './normalize.js';
import { settlementSource } from './rules-text.js';

export interface PriceProposition {
  asset: string;
  comparator: PriceComparator;
  threshold: number;
  upper?: number | undefined;
  /** Null: a date without the hour the price is read at. */
  claim: PriceClaim | null;
  day: string | null;
}

/** A market about one asset's price against a threshold, its instant possibly unknown; null otherwise. */
export function priceProposition(m: MarketText): PriceProposition | null {
  const claim = priceClaim(m, () => null);
  if (claim) return { asset: claim.asset, comparator: claim.comparator, threshold: claim.threshold, upper: claim.upper, claim, day: null };
  const question = fold(m.question);
  const asset = findAsset(question);
  const date = findDate(question);
  if (asset?.asset.assetClass !== 'crypto' || !date || !/\bprice\b|\babove\b|\bbelow\b/.test(question)) return null;
  if (/\bgo(?:es)? (?:up|down)|up or down|than\b/.test(question)) return null;
  const bound = strikeBound(m.strike) ?? boundFromText(question);
  if (!bound) return null;
  return { asset: asset.asset.code, ...bound, claim: null, day: `${date.month}/${date.day}` };
}

const boundText = (p: PriceProposition) =>
  p.comparator === 'between' ? `between ${p.threshold} and ${p.upper}` : `${p.comparator.replace(/_/g, ' ')} ${p.threshold}`;
const windowText = (p: PriceProposition) => {
  if (!p.claim) return `${p.day} (hour not stated)`;
  const { kind, from, until } = p.claim;
  return from !== undefined ? `${kind} ${isoInstant(from)} to ${isoInstant(until)}` : `${kind} ${isoInstant(until)}`;
};

const LOWER = new Set<PriceComparator>(['above', 'at_or_above']);
const UPPER = new Set<PriceComparator>(['below', 'at_or_below']);

export function judgePrices(ma: MarketText, a: PriceProposition, mb: MarketText, b: PriceProposition): LinkVerdict {
  const v = new VerdictBuilder();
  v.compare('subject', a.asset, b.asset);
  v.compare(
    'proposition',
    a.claim?.kind ?? 'price at an hour not stated',
    b.claim?.kind ?? 'price at an hour not stated',
    a.claim && b.claim ? a.claim.kind === b.claim.kind : null,
  );
  v.compare('threshold', boundText(a), boundText(b), a.comparator === b.comparator && a.threshold === b.threshold && a.upper === b.upper);
  const windowAgrees = a.claim && b.claim ? a.claim.until === b.claim.until && a.claim.from === b.claim.from : null;
  v.compare('window', windowText(a), windowText(b), windowAgrees);
  v.compare('stage', null, null);
  v.compare('yes_side', 'yes', 'yes');
  const [sa, sb] = [settlementSource(ma.rules, ma.resolutionSource), settlementSource(mb.rules, mb.resolutionSource)];
  v.compare('settlement_source', sa, sb);
  const [ia, ib] = [instrument(ma), instrument(mb)];
  const instrumentsDiffer = ia !== ib && (ia === 'futures' || ib === 'futures');
  v.compare(
    'mechanism',
    `price ${a.claim?.kind ?? 'at'}${ia ? ` (${ia})` : ''}`,
    `price ${b.claim?.kind ?? 'at'}${ib ? ` (${ib})` : ''}`,
    instrumentsDiffer ? false : null,
  );
  if (a.asset !== b.asset) return v.verdict('different');
  // A futures contract's settlement is not the spot price: they part by the basis, far more than a tick.
  if (instrumentsDiffer) return v.verdict('related');
  if (!a.claim || !b.claim)
    return v.lack('the hour at which the price is read: the question gives a date only and the rules state no time').verdict('unresolved');
  if (a.claim.kind !== b.claim.kind) return v.verdict('related');
  if (!windowAgrees) return v.verdict('related', touchImplication(a, b));
  if (sa !== sb) v.risk(`price source: ${sa ?? 'not stated'} against ${sb ?? 'not stated'}; a price within a tick of the threshold can settle differently`);
  const bounds = compareBounds(a, b);
  // Complements exist only for a value read at one instant: a window can touch both sides of a threshold.
  if (bounds.relation === 'inverse' && a.claim.kind === 'touch') return v.verdict('related');
  if (bounds.relation === 'same' || bounds.relation === 'inverse') {
    if (bounds.tick) v.risk(bounds.tick);
    return v.verdict(bounds.relation);
  }
  return v.verdict('related', bounds.implies);
}

/** What the price is of, where the texts say: a futures contract or the spot price. */
function instrument(m: MarketText): 'futures' | 'spot' | null {
  const text = fold(`${m.question} ${m.rules}`);
  if (/\bfutures?\b|\bfront[- ]month\b|\bcontract month\b/.test(text)) return 'futures';
  if (/\bspot\b/.test(text)) return 'spot';
  return null;
}

/** Two bounds read at one instant: equal (up to a tick), complementary, or one implying the other. */
function compareBounds(a: PriceProposition, b: PriceProposition): { relation: 'same' | 'inverse' | 'related'; implies?: LinkImplication; tick?: string } {
  if (a.comparator === 'between' || b.comparator === 'between') {
    if (a.comparator === b.comparator && a.threshold === b.threshold && a.upper === b.upper) return { relation: 'same' };
    return { relation: 'related', implies: rangeImplication(a, b) };
  }
  const tick = `at exactly ${a.threshold} the comparators differ (${a.comparator} against ${b.comparator}): a tick's difference`;
  if (LOWER.has(a.comparator) === LOWER.has(b.comparator)) {
    if (a.threshold === b.threshold) return a.comparator === b.comparator ? { relation: 'same' } : { relation: 'same', tick };
    const higher = a.threshold > b.threshold;
    const lower = LOWER.has(a.comparator);
    return { relation: 'related', implies: higher === lower ? 'a_implies_b' : 'b_implies_a' };
  }
  if (a.threshold === b.threshold) {
    const exact =
      (a.comparator === 'above' && b.comparator === 'at_or_below') ||
      (a.comparator === 'at_or_above' && b.comparator === 'below') ||
      (b.comparator === 'above' && a.comparator === 'at_or_below') ||
      (b.comparator === 'at_or_above' && a.comparator === 'below');
    return exact ? { relation: 'inverse' } : { relation: 'inverse', tick };
  }
  return { relation: 'related' };
}

function rangeImplication(a: PriceProposition, b: PriceProposition): LinkImplication | undefined {
  const interval = (p: PriceProposition): [number, number] =>
    p.comparator === 'between'
      ? [p.threshold, p.upper ?? p.threshold]
      : LOWER.has(p.comparator)
        ? [p.threshold, Number.POSITIVE_INFINITY]
        : UPPER.has(p.comparator)
          ? [Number.NEGATIVE_INFINITY, p.threshold]
          : [0, 0];
  const [ia, ib] = [interval(a), interval(b)];
  if (ia[0] >= ib[0] && ia[1] <= ib[1]) return 'a_implies_b';
  if (ib[0] >= ia[0] && ib[1] <= ia[1]) return 'b_implies_a';
  return undefined;
}

/** A touch of one threshold within a window implies a touch within any window that contains it. */
function touchImplication(a: PriceProposition, b: PriceProposition): LinkImplication | undefined {
  if (a.claim?.kind !== 'touch' || b.claim?.kind !== 'touch' || a.comparator !== b.comparator || a.threshold !== b.threshold) return undefined;
  const start = (p: PriceProposition) => p.claim?.from ?? Number.NEGATIVE_INFINITY;
  if (start(a) >= start(b) && a.claim.until <= b.claim.until) return 'a_implies_b';
  if (start(b) >= start(a) && b.claim.until <= a.claim.until) return 'b_implies_a';
  return undefined;
}
