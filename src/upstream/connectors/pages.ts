/**
 * Reading a paged market list politely: one request at a time, the pages spread over the poll
 * interval, up to a bound. A failure on the first page fails the poll (nothing to go on); on a
 * later page (a rate limit, a timeout) the pages already read are kept and the answer is marked
 * incomplete, so the markets it did not reach keep their last data instead of leaving the ranking.
 */
import type { PollContext } from '../connector.js';
import { UpstreamError } from '../errors.js';

export interface Page<T> {
  items: T[];
  /** Where the next page starts (an offset, a cursor, an id); null after the last page. */
  next: string | null;
}

export interface PagedAnswer<T> {
  items: T[];
  /** Every page up to the end of the list or the bound was read. */
  complete: boolean;
  requests: number;
  /** Why the reading stopped early, for the log. */
  stoppedBy?: string;
}

interface PageReading<T> {
  /** Items to read at most (the tracked bound). */
  maxItems: number;
  pageSize: number;
  /** Wait before each page after the first. */
  gapMs: number;
  /** Fetches the page starting at `from` (null: the first), asking for at most `limit` items. */
  fetch(from: string | null, limit: number): Promise<Page<T>>;
}

/** How a paged connector spaces its pages: a fixed wait (UPSTREAM_PAGE_GAP_MS), else spread over the interval. */
export interface Paging {
  maxMarkets?: number;
  /** A fixed wait between two pages, in ms; unset: the bound's pages spread over half the poll interval. */
  pageGapMs?: number | undefined;
}

/** The wait between pages: the configured one, or the bound's pages spread over half the poll interval (the rest is for slow answers). */
export const pageGapMs = (pollMs: number, maxItems: number, pageSize: number, configured?: number): number =>
  configured ?? Math.floor(pollMs / (2 * Math.max(1, Math.ceil(maxItems / pageSize))));

export async function readPages<T>(context: PollContext, reading: PageReading<T>): Promise<PagedAnswer<T>> {
  const items: T[] = [];
  let from: string | null = null;
  let requests = 0;
  while (items.length < reading.maxItems) {
    if (requests > 0) await context.sleep(reading.gapMs);
    let page: Page<T>;
    try {
      requests++;
      page = await reading.fetch(from, Math.min(reading.pageSize, reading.maxItems - items.length));
    } catch (error) {
      if (requests === 1 || !(error instanceof UpstreamError)) throw error;
      return { items, complete: false, requests, stoppedBy: `page ${requests}: ${error.message}` };
    }
    items.push(...page.items);
    if (page.next === null || page.items.length === 0) break;
    from = page.next;
  }
  return { items: items.slice(0, reading.maxItems), complete: true, requests };
}

/** One list read up to `maxItems`, its pages spread over the poll interval (or the configured gap). */
export const readList = <T>(context: PollContext, maxItems: number, pageSize: number, configuredGapMs: number | undefined, fetch: PageReading<T>['fetch']) =>
  readPages(context, { maxItems, pageSize, gapMs: pageGapMs(context.pollMs, maxItems, pageSize, configuredGapMs), fetch });
