/**
 * Market links: the texts a venue publishes about a prediction market, what the judge says about two
 * of them, and the price claim a market makes about an asset. Times are epoch milliseconds.
 */

/** What the judge reads of one market: only what its venue publishes, never its price. */
export interface MarketText {
  /** Lower-case venue: `polymarket`, `kalshi`, `manifold`, or a demo venue. */
  venue: string;
  /** The venue's own id (Kalshi's ticker, Polymarket's market id), without the `<source>:` prefix. */
  id: string;
  question: string;
  /** The venue's rules or description, `''` when it publishes none. */
  rules: string;
  /** When trading closes; null when the venue gives no time. */
  closeTime: number | null;
  /** When the market settles, where the venue says (Kalshi's expiration time). */
  expiryTime?: number | null | undefined;
  /** The name of the outcome YES stands for (Kalshi's `yes_sub_title`, Polymarket's first outcome). */
  yesSide?: string | null | undefined;
  /** Kalshi's strike fields, where the market has them. */
  strike?: StrikeFields | null | undefined;
  /** Where the venue says the result comes from (Polymarket's `resolutionSource`). */
  resolutionSource?: string | null | undefined;
}

export interface StrikeFields {
  /** Kalshi's `strike_type`: `greater`, `greater_or_equal`, `less`, `less_or_equal`, `between`, `custom`... */
  type: string;
  floor?: number | null | undefined;
  cap?: number | null | undefined;
}

/** What two markets are to each other, from the texts alone. */
export const LINK_RELATIONS = ['same', 'inverse', 'related', 'different', 'unresolved'] as const;
export type LinkRelation = (typeof LINK_RELATIONS)[number];

/** The aspects the judge compares, in the order it reports them. */
export const LINK_ASPECTS = ['subject', 'proposition', 'threshold', 'window', 'stage', 'yes_side', 'settlement_source', 'mechanism'] as const;
export type LinkAspect = (typeof LINK_ASPECTS)[number];

/** One aspect compared: each side's value as the judge read it, and whether they agree (null: not comparable). */
export interface LinkEvidence {
  aspect: LinkAspect;
  a: string | null;
  b: string | null;
  agrees: boolean | null;
}

/** For `related` pairs: YES on one side settling YES means YES on the other. */
export type LinkImplication = 'a_implies_b' | 'b_implies_a';

export interface LinkVerdict {
  relation: LinkRelation;
  implies?: LinkImplication | undefined;
  evidence: LinkEvidence[];
  /** Differences in exceptional branches (postponement, a void, a stat correction) of a `same` or `inverse` pair. */
  basisRisk: string[];
  /** What the texts lack for a verdict (for `unresolved`). */
  missing: string[];
}

/** Who decided a stored link: the rules, an operator, or a model asked about an unresolved pair. */
export const LINK_DECIDERS = ['rules', 'operator', 'model'] as const;
export type LinkDecider = (typeof LINK_DECIDERS)[number];

export const PRICE_COMPARATORS = ['above', 'at_or_above', 'below', 'at_or_below', 'between'] as const;
export type PriceComparator = (typeof PRICE_COMPARATORS)[number];

/** `at`: the value at an instant; `close`: a session's closing price; `touch`: reached at any time in a window. */
export const PRICE_CLAIM_KINDS = ['at', 'close', 'touch'] as const;
export type PriceClaimKind = (typeof PRICE_CLAIM_KINDS)[number];

/** A market whose proposition is an asset's price against a fixed threshold. */
export interface PriceClaim {
  /** `BTC`, `ETH`, `TSLA`, `XAU`... */
  asset: string;
  /** The market-data symbol the gateway tracks for it (`BTC/USD`), else null. */
  symbol: string | null;
  comparator: PriceComparator;
  threshold: number;
  /** The upper bound of `between`. */
  upper?: number | undefined;
  kind: PriceClaimKind;
  /** The window's start, where the text states one. */
  from?: number | undefined;
  /** The instant, the session's close, or the window's end. */
  until: number;
}
