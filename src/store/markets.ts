/** Market metadata, latest quotes and candles (variant A). */
import type { Kysely } from 'kysely';
import { createCandles } from './candles.js';
import { createMarketMetadata } from './market-metadata.js';
import { createQuotes } from './quotes.js';
import type { Database } from './tables.js';

/** One module per concern, composed over one handle. */
export function createMarketRepository(db: Kysely<Database>) {
  return {
    ...createMarketMetadata(db),
    ...createQuotes(db),
    ...createCandles(db),
  };
}

export type MarketRepository = ReturnType<typeof createMarketRepository>;
