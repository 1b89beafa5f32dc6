/**
 * What the market linker knows of the stored texts: the blocking index and each market's text
 * hash, loaded from the store on first use, so a restart judges nothing that did not change.
 */
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { MarketText } from '../domain/links.js';
import { createCandidateIndex } from '../links/candidate-index.js';
import type { MarketLinkRepository, StoredMarketText } from '../store/market-links.js';
import type { LinkingRules } from './linker-judging.js';

export const marketIdOf = (text: MarketText): string => `${text.venue}:${text.id}`;

/** Of everything the judge reads: the same texts, the same hash. */
export function textHash(text: MarketText): string {
  const { venue, id, question, rules, closeTime, expiryTime, yesSide, strike, resolutionSource } = text;
  const fields = [
    venue,
    id,
    question,
    rules,
    closeTime,
    expiryTime ?? null,
    yesSide ?? null,
    strike?.type ?? null,
    strike?.floor ?? null,
    strike?.cap ?? null,
    resolutionSource ?? null,
  ];
  return createHash('sha256').update(JSON.stringify(fields)).digest('base64url');
}

export function createKnownTexts(repo: MarketLinkRepository, rules: LinkingRules, logger: Logger, maxCandidates: number | undefined) {
  const index = createCandidateIndex(maxCandidates === undefined ? {} : { maxCandidates });
  const hashes = new Map<string, string>();
  let loading: Promise<void> | undefined;

  const put = (marketId: string, text: MarketText, hash: string) => {
    index.put(marketId, text.venue, rules.keysOf(text));
    hashes.set(marketId, hash);
  };

  async function load(): Promise<void> {
    const startedAt = Date.now();
    for await (const page of repo.textPages()) for (const t of page) put(t.marketId, t.text, t.hash);
    logger.info({ markets: index.size, ms: Date.now() - startedAt }, 'market links: blocking index loaded');
  }

  return {
    index,
    /** Resolves once the stored texts are loaded (loaded again after a failure). */
    ready(): Promise<void> {
      loading ??= load().catch((error: unknown) => {
        loading = undefined;
        throw error;
      });
      return loading;
    },
    /** The texts not known with this hash, as they would be stored at `at`. */
    changed(texts: readonly MarketText[], at: number): StoredMarketText[] {
      const changed: StoredMarketText[] = [];
      for (const text of texts) {
        const marketId = marketIdOf(text);
        const hash = textHash(text);
        if (hashes.get(marketId) !== hash) changed.push({ marketId, text, hash, claim: rules.claimOf(text), updatedAt: at });
      }
      return changed;
    },
    /** Puts changed texts in the blocking index (their candidates are found before they are stored). */
    indexed(changed: readonly StoredMarketText[]): void {
      for (const c of changed) index.put(c.marketId, c.text.venue, rules.keysOf(c.text));
    },
    /** Stored texts: their hashes are known from now on. */
    stored(done: readonly StoredMarketText[]): void {
      for (const c of done) hashes.set(c.marketId, c.hash);
    },
  };
}
