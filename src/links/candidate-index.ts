/**
 * The blocking index: which markets share a blocking key (a subject and a date, an asset and a
 * day) with which. Candidates for the judge come from here, never from all pairs, and only from
 * other venues (a venue does not list one question twice). Each market gets at most `maxCandidates`,
 * those sharing the most keys first, so one over-broad key cannot make the work quadratic.
 */

export interface CandidateIndex {
  /** Adds a market, or replaces its keys. */
  put(marketId: string, venue: string, keys: readonly string[]): void;
  /** The markets of other venues sharing a key with `marketId`, most keys shared first. */
  candidates(marketId: string): string[];
  readonly size: number;
}

/** Keys held by more markets than this say nothing about a pair (a bare year, a common word): skipped. */
export const CROWDED_KEY = 500;

export function createCandidateIndex({ maxCandidates = 50 }: { maxCandidates?: number } = {}): CandidateIndex {
  const byKey = new Map<string, Set<string>>();
  const markets = new Map<string, { venue: string; keys: readonly string[] }>();

  function remove(marketId: string): void {
    for (const key of markets.get(marketId)?.keys ?? []) {
      const holders = byKey.get(key);
      holders?.delete(marketId);
      if (holders?.size === 0) byKey.delete(key);
    }
    markets.delete(marketId);
  }

  return {
    put(marketId, venue, keys) {
      remove(marketId);
      const distinct = [...new Set(keys)];
      markets.set(marketId, { venue, keys: distinct });
      for (const key of distinct) {
        const holders = byKey.get(key) ?? new Set<string>();
        byKey.set(key, holders);
        holders.add(marketId);
      }
    },
    candidates(marketId) {
      const own = markets.get(marketId);
      if (!own) return [];
      const shared = new Map<string, number>();
      for (const key of own.keys) {
        const holders = byKey.get(key)!;
        if (holders.size > CROWDED_KEY) continue;
        for (const other of holders) {
          if (markets.get(other)!.venue !== own.venue) shared.set(other, (shared.get(other) ?? 0) + 1);
        }
      }
      return [...shared.entries()]
        .sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))
        .slice(0, maxCandidates)
        .map(([id]) => id);
    },
    get size() {
      return markets.size;
    },
  };
}
