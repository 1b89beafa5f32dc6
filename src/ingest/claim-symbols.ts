/**
 * The market-data symbol of an asset code, as the gateway spells its markets (`BTC` -> `BTC/USD`):
 * every asset it can track is in the demo catalogue, whose symbols the live sources map onto too.
 * A price claim names it so a dashboard can open the asset's market from the question.
 */
import { DEMO_MARKETS } from './demo/catalogue.js';

const QUOTE = '/USD';
const SYMBOL_OF_ASSET = new Map(DEMO_MARKETS.filter((m) => m.symbol.endsWith(QUOTE)).map((m) => [m.symbol.slice(0, -QUOTE.length), m.symbol]));

export const trackedSymbolOf = (asset: string): string | null => SYMBOL_OF_ASSET.get(asset.toUpperCase()) ?? null;

/** The asset code a symbol is quoted for (`BTC/USD` -> `BTC`), the key claims are stored under. */
export const assetCodeOf = (symbol: string): string => symbol.split('/')[0]!.toUpperCase();
