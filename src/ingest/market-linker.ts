/**
 * Links markets as ingest sees their texts (docs/links.md): a new or changed text is stored with
 * its price claim, put in the blocking index, and judged against its candidates from other venues;
 * the verdicts replace that market's earlier ones. An unchanged text costs a hash. The index is
 * rebuilt from the stored texts on the first batch, so a restart judges nothing that did not change.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { MarketText } from '../domain/links.js';
import type { MarketLinkRepository, StoredMarketText } from '../store/market-links.js';
import { type Judging, judgeAgainstCandidates, type LinkingRules, MODEL_QUESTIONS_PER_BATCH, type ModelBudget } from './linker-judging.js';
import { createKnownTexts } from './linker-texts.js';
import { createSerialQueue } from './serial.js';

export { type LinkingRules, MODEL_QUESTIONS_PER_BATCH } from './linker-judging.js';
export { marketIdOf, textHash } from './linker-texts.js';

interface MarketLinkerOptions {
  repo: MarketLinkRepository;
  rules: LinkingRules;
  now: () => number;
  logger: Logger;
  /** Candidates judged per changed market, at most. */
  maxCandidates?: number;
  /** Told after verdicts were stored (other instances reload what they keep of links). */
  onChange?: () => void;
}

export function createMarketLinker({ repo, rules, now, logger, maxCandidates, onChange }: MarketLinkerOptions) {
  const known = createKnownTexts(repo, rules, logger, maxCandidates);
  // One batch at a time: a candidate's text is always stored before another venue's batch reads it.
  const serial = createSerialQueue();
  /** Set by stop(): the batch under way stops between two markets, the rest judged on the next start. */
  let stopping = false;
  /** Aborted by stop(): a model question under way ends at once rather than at its time budget. */
  let stopSignal = new AbortController();
  let pending: Promise<unknown> = Promise.resolve();

  const judging: Judging = { repo, rules, now, logger, index: known.index, stopping: () => stopping, signal: () => stopSignal.signal };

  /**
   * The changed texts judged, their verdicts stored, then the texts themselves: a failure or a stop
   * part way leaves those texts unstored, so they count as changed again next time.
   */
  async function acceptNow(texts: readonly MarketText[]): Promise<number> {
    await known.ready();
    const changed = known.changed(texts, now());
    if (changed.length === 0) return 0;
    const startedAt = Date.now();
    known.indexed(changed);
    const batch = new Map(changed.map((c) => [c.marketId, c]));
    const models: ModelBudget = { left: MODEL_QUESTIONS_PER_BATCH };
    let judged = 0;
    const done: StoredMarketText[] = [];
    for (const c of changed) {
      if (stopping) break;
      const pairs = await judgeAgainstCandidates(judging, c, batch, models);
      if (pairs === undefined) break;
      judged += pairs;
      done.push(c);
      // The embedded store answers synchronously: without a turn of the event loop between markets,
      // a first batch of thousands would hold every request for its whole length.
      await nextTurn();
    }
    await repo.upsertTexts(done);
    known.stored(done);
    logger.info({ changed: changed.length, judged, stoppedEarly: done.length < changed.length, ms: Date.now() - startedAt }, 'market links judged');
    if (judged > 0) onChange?.();
    return judged;
  }

  const accept = (texts: readonly MarketText[]): Promise<number> => serial(() => acceptNow(texts));

  return {
    /** A batch's texts: the changed ones judged against their candidates and stored; resolves to the pairs judged. */
    accept,
    /** The same, for ingest, which does not wait: a failure is logged, and the texts count as changed next time. */
    offer(texts: readonly MarketText[]): void {
      if (stopping || texts.length === 0) return;
      pending = accept(texts).catch((error: unknown) =>
        logger.error({ err: error }, 'market links: judging failed; the texts are judged again with the next batch'),
      );
    },
    start(): void {
      stopping = false;
      stopSignal = new AbortController();
    },
    /** Resolves once the texts offered so far are judged (or their batch failed): for tests and the bench. */
    async settled(): Promise<void> {
      await pending;
    },
    /** Lets the batch under way stop at its next market, and waits for it. */
    async stop(): Promise<void> {
      stopping = true;
      stopSignal.abort();
      await pending;
    },
  };
}

export type MarketLinker = ReturnType<typeof createMarketLinker>;
