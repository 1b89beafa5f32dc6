/**
 * Market links (docs/links.md): the texts the judge reads, its verdicts, the operator's decisions.
 * A pair is one row, its ids ordered (`a_id` < `b_id`), its evidence written from `a`'s side; a
 * reader asking from `b`'s side gets it turned round. An operator's decision wins over the judge's.
 */
import type { Kysely } from 'kysely';
import { createLinkVerdicts } from './link-verdicts.js';
import { createLinkViews } from './link-views.js';
import { createMarketTexts } from './market-texts.js';
import type { Database } from './tables.js';

export { orderedPair, swapSides } from './link-pairs.js';
export type { MarketLinkView } from './link-views.js';
export type { StoredMarketText } from './market-texts.js';

/** One module per concern (texts, verdicts and decisions, views), composed over one handle. */
export function createMarketLinkRepository(db: Kysely<Database>) {
  return {
    ...createMarketTexts(db),
    ...createLinkVerdicts(db),
    ...createLinkViews(db),
  };
}

export type MarketLinkRepository = ReturnType<typeof createMarketLinkRepository>;
