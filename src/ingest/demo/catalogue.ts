/** The markets of the offline demo feed, with the parameters its random walk needs. */
import type { MarketMeta, MarketType } from '../../domain/market.js';

export const DEMO_SOURCE = 'demo';

export interface DemoMarket {
  symbol: string;
  name: string;
  type: MarketType;
  /** Reference price in the quote currency; the seed moves the current price around it. */
  price: number;
  /** Annualised volatility (0.6 = 60 %). */
  volatility: number;
  /** Typical volume per day, in the base asset. */
  dailyVolume: number;
  /** Decimal places prices are quoted with (a tick size of 10^-decimals). */
  decimals: number;
  staleAfterMs: number;
  /** Delisted or suspended: the feed stops quoting it and it shows as inactive. */
  halted: boolean;
}

const MINUTE = 60_000;
// Bounds are several ticks wide, so a late timer run does not flap a market to inactive. Crypto trades
// around the clock and is expected to be freshest; forex and stocks get more slack.
const STALE_MS: Record<MarketType, number> = { crypto: 5 * MINUTE, forex: 10 * MINUTE, stocks: 15 * MINUTE };

type Row = [symbol: string, name: string, price: number, volatility: number, dailyVolume: number, decimals: number];

function rows(type: MarketType, list: Row[], halted: readonly string[] = []): DemoMarket[] {
  return list.map(([symbol, name, price, volatility, dailyVolume, decimals]) => ({
    symbol,
    name,
    type,
    price,
    volatility,
    dailyVolume,
    decimals,
    staleAfterMs: STALE_MS[type],
    halted: halted.includes(symbol),
  }));
}

// Plausible late-2026 levels; exact values do not matter, only orders of magnitude.
const CRYPTO = rows(
  'crypto',
  [
    ['BTC/USD', 'Bitcoin / US Dollar', 98_500, 0.55, 35_000, 2],
    ['ETH/USD', 'Ether / US Dollar', 3_650, 0.7, 450_000, 2],
    ['SOL/USD', 'Solana / US Dollar', 185, 0.85, 9_000_000, 3],
    ['XRP/USD', 'XRP / US Dollar', 2.35, 0.8, 1_500_000_000, 4],
    ['ADA/USD', 'Cardano / US Dollar', 0.72, 0.85, 700_000_000, 5],
    ['DOGE/USD', 'Dogecoin / US Dollar', 0.21, 0.95, 5_000_000_000, 6],
    ['AVAX/USD', 'Avalanche / US Dollar', 28.5, 0.9, 15_000_000, 3],
    ['DOT/USD', 'Polkadot / US Dollar', 5.4, 0.85, 30_000_000, 4],
    ['LINK/USD', 'Chainlink / US Dollar', 19.8, 0.85, 25_000_000, 3],
    ['LTC/USD', 'Litecoin / US Dollar', 95, 0.7, 4_000_000, 2],
    ['POL/USD', 'Polygon / US Dollar', 0.32, 0.95, 500_000_000, 5],
    ['ATOM/USD', 'Cosmos / US Dollar', 5.1, 0.85, 20_000_000, 4],
    // Delisted after the exchange behind it collapsed: kept to show an inactive market.
    ['FTT/USD', 'FTX Token / US Dollar', 0.95, 1.0, 2_000_000, 4],
  ],
  ['FTT/USD'],
);

const FOREX = rows('forex', [
  ['EUR/USD', 'Euro / US Dollar', 1.12, 0.07, 120_000_000_000, 5],
  ['GBP/USD', 'British Pound / US Dollar', 1.31, 0.08, 45_000_000_000, 5],
  ['USD/JPY', 'US Dollar / Japanese Yen', 148.5, 0.1, 90_000_000_000, 3],
  ['USD/CHF', 'US Dollar / Swiss Franc', 0.83, 0.075, 20_000_000_000, 5],
  ['AUD/USD', 'Australian Dollar / US Dollar', 0.66, 0.1, 35_000_000_000, 5],
  ['USD/CAD', 'US Dollar / Canadian Dollar', 1.38, 0.06, 30_000_000_000, 5],
  ['NZD/USD', 'New Zealand Dollar / US Dollar', 0.59, 0.105, 12_000_000_000, 5],
  ['EUR/GBP', 'Euro / British Pound', 0.855, 0.055, 15_000_000_000, 5],
  ['EUR/JPY', 'Euro / Japanese Yen', 166.3, 0.105, 18_000_000_000, 3],
  ['USD/CNY', 'US Dollar / Chinese Yuan', 7.15, 0.05, 25_000_000_000, 4],
]);

const STOCKS = rows(
  'stocks',
  [
    ['AAPL/USD', 'Apple Inc.', 245, 0.25, 52_000_000, 2],
    ['MSFT/USD', 'Microsoft Corporation', 480, 0.23, 22_000_000, 2],
    ['NVDA/USD', 'NVIDIA Corporation', 185, 0.5, 180_000_000, 2],
    ['TSLA/USD', 'Tesla, Inc.', 410, 0.6, 95_000_000, 2],
    ['AMZN/USD', 'Amazon.com, Inc.', 235, 0.32, 42_000_000, 2],
    ['GOOGL/USD', 'Alphabet Inc.', 215, 0.3, 30_000_000, 2],
    ['META/USD', 'Meta Platforms, Inc.', 720, 0.38, 13_000_000, 2],
    ['JPM/USD', 'JPMorgan Chase & Co.', 295, 0.22, 9_000_000, 2],
    ['V/USD', 'Visa Inc.', 350, 0.2, 6_500_000, 2],
    ['NFLX/USD', 'Netflix, Inc.', 115, 0.4, 35_000_000, 2],
    // Trading suspended (bank failure): the second inactive market.
    ['SIVB/USD', 'SVB Financial Group', 106, 0.6, 1_500_000, 2],
  ],
  ['SIVB/USD'],
);

export const DEMO_MARKETS: readonly DemoMarket[] = [...CRYPTO, ...FOREX, ...STOCKS];

/** The catalogue as the feed declares it to the store. */
export function demoMarketMetas(): MarketMeta[] {
  return DEMO_MARKETS.map((m) => ({
    symbol: m.symbol,
    name: m.name,
    type: m.type,
    source: DEMO_SOURCE,
    staleAfterMs: m.staleAfterMs,
    halted: m.halted,
  }));
}
