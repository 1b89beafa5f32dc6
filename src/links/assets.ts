/**
 * The assets a question can be about, by the names questions use. A name counts only as a whole word
 * (`gold` is not `Golden State`, `eth` is not `MegaETH`), and company names need a price word nearby
 * (`Apple's film` is not Apple's stock): the claim extractor checks that part.
 */

export type AssetClass = 'crypto' | 'stock' | 'commodity' | 'index';

export interface AssetName {
  code: string;
  assetClass: AssetClass;
  pattern: RegExp;
}

const asset = (code: string, assetClass: AssetClass, names: string): AssetName => ({
  code,
  assetClass,
  pattern: new RegExp(String.raw`\b(?:${names})\b`, 'i'),
});

/** Longer, more specific names first: the first match names the asset. */
export const ASSET_NAMES: readonly AssetName[] = [
  // Forks and namesakes before the asset they are named after: "Bitcoin Cash" is not Bitcoin.
  asset('BCH', 'crypto', 'bitcoin cash|bch'),
  asset('BSV', 'crypto', 'bitcoin sv|bsv'),
  asset('BTG', 'crypto', 'bitcoin gold'),
  asset('ETC', 'crypto', 'ethereum classic'),
  asset('BTC', 'crypto', 'bitcoin|btc'),
  asset('ETH', 'crypto', 'ethereum|ether|eth'),
  asset('SOL', 'crypto', 'solana|sol'),
  asset('XRP', 'crypto', 'xrp|ripple'),
  asset('DOGE', 'crypto', 'dogecoin'),
  asset('ADA', 'crypto', 'cardano'),
  asset('AVAX', 'crypto', 'avalanche|avax'),
  asset('DOT', 'crypto', 'polkadot'),
  asset('LINK', 'crypto', 'chainlink'),
  asset('LTC', 'crypto', 'litecoin|ltc'),
  asset('HYPE', 'crypto', 'hyperliquid'),
  asset('XAU', 'commodity', 'gold|xau'),
  asset('XAG', 'commodity', 'silver|xag'),
  asset('WTI', 'commodity', 'wti|crude oil'),
  asset('SPX', 'index', String.raw`s&p\s?500|s&p|spx`),
  asset('NDX', 'index', 'nasdaq[- ]100|nasdaq|ndx'),
  asset('TSLA', 'stock', 'tesla|tsla'),
  asset('AAPL', 'stock', 'apple|aapl'),
  asset('MSFT', 'stock', 'microsoft|msft'),
  asset('NVDA', 'stock', 'nvidia|nvda'),
  asset('AMZN', 'stock', 'amazon|amzn'),
  asset('GOOGL', 'stock', 'alphabet|google|googl|goog'),
  asset('META', 'stock', 'meta platforms|meta'),
  asset('NFLX', 'stock', 'netflix|nflx'),
  asset('PLTR', 'stock', 'palantir|pltr'),
  asset('COIN', 'stock', 'coinbase'),
  asset('MSTR', 'stock', 'microstrategy|mstr'),
];

/** The first asset a text names, with where the name stands. */
export function findAsset(text: string): { asset: AssetName; index: number } | null {
  let best: { asset: AssetName; index: number } | null = null;
  for (const candidate of ASSET_NAMES) {
    const match = candidate.pattern.exec(text);
    if (match && (best === null || match.index < best.index)) best = { asset: candidate, index: match.index };
  }
  return best;
}
