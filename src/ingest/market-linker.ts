/**
 * Links markets as ingest sees their texts (docs/links.md): a new or changed text is stored with
 * its price claim, put in the blocking index, and judged against its candidates from other venues;
 * the verdicts replace that market's earlier ones. An unchanged text costs a hash. The index is
 * rebuilt from the stored texts on the first batch, so a restart judges nothing that did not change.
 */
import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { LinkVerdict, MarketText, PriceClaim } from '../domain/links.js';
import { createCandidateIndex } from '../links/candidate-index.js';
import type { MarketLinkRepository, StoredMarketText } from '../store/market-links.js';
import { createSerialQueue } from './serial.js';

/** The pure parts, injected: the judge, the blocking keys, the price claim; and a model, where one is configured. */
export interface LinkingRules {
  judge(a: MarketText, b: MarketText): LinkVerdict;
  keysOf(text: MarketText): string[];
  claimOf(text: MarketText): PriceClaim | null;
  /** Asked about a pair the rules left unresolved; undefined keeps it unresolved (links/model-question.ts). */
  askModel?(a: MarketText, b: MarketText, rules: LinkVerdict, signal?: AbortSignal): Promise<LinkVerdict | undefined>;
}

/** Model questions per batch, at most: a first poll of thousands of markets must not become thousands of calls. */
export const MODEL_QUESTIONS_PER_BATCH = 20;

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

interface ModelBudget {
  left: number;
}

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

export function createMarketLinker({ repo, rules, now, logger, maxCandidates, onChange }: MarketLinkerOptions) {
  const index = createCandidateIndex(maxCandidates === undefined ? {} : { maxCandidates });
  const hashes = new Map<string, string>();
  let loading: Promise<void> | undefined;

  const put = (marketId: string, text: MarketText, hash: string) => {
    index.put(marketId, text.venue, rules.keysOf(text));
    hashes.set(marketId, hash);
  };
  // One batch at a time: a candidate's text is always stored before another venue's batch reads it.
  const serial = createSerialQueue();
  /** Set by stop(): the batch under way stops between two markets, the rest judged on the next start. */
  let stopping = false;
  /** Aborted by stop(): a model question under way ends at once rather than at its time budget. */
  let stopSignal = new AbortController();
  let pending: Promise<unknown> = Promise.resolve();

  async function load(): Promise<void> {
    const startedAt = Date.now();
    for await (const page of repo.textPages()) for (const t of page) put(t.marketId, t.text, t.hash);
    logger.info({ markets: index.size, ms: Date.now() - startedAt }, 'market links: blocking index loaded');
  }

  /**
   * Judges one changed market against its candidates and stores the verdicts. A candidate of the
   * same batch (the demo's venues arrive together) is read from the batch, not yet from the store.
   */
  async function judgeAgainstCandidates(
    changed: StoredMarketText,
    batch: ReadonlyMap<string, StoredMarketText>,
    models: ModelBudget,
  ): Promise<number | undefined> {
    const ids = index.candidates(changed.marketId);
    const candidates = [...ids.flatMap((id) => batch.get(id) ?? []), ...(await repo.textsByIds(ids.filter((id) => !batch.has(id))))];
    const verdicts = [];
    for (const other of candidates) {
      const verdict = rules.judge(changed.text, other.text);
      const byModel = verdict.relation === 'unresolved' ? await askModel(changed.text, other.text, verdict, models) : undefined;
      verdicts.push(
        byModel
          ? { otherId: other.marketId, verdict: byModel, decidedBy: 'model' as const }
          : { otherId: other.marketId, verdict, decidedBy: 'rules' as const },
      );
    }
    // Stopped meanwhile: a model question may have been cut short, so the market is judged again next time.
    if (stopping) return undefined;
    await repo.replaceVerdicts(changed.marketId, verdicts, now());
    return verdicts.length;
  }

  /** The model's verdict on an unresolved pair, within the batch's budget; a failure ends the asking for the batch. */
  async function askModel(a: MarketText, b: MarketText, verdict: LinkVerdict, models: ModelBudget): Promise<LinkVerdict | undefined> {
    if (!rules.askModel || models.left <= 0 || stopping) return undefined;
    models.left--;
    try {
      return await rules.askModel(a, b, verdict, stopSignal.signal);
    } catch (error) {
      models.left = 0;
      if (!stopping) logger.warn({ err: error }, 'market links: the model did not answer; unresolved pairs stay unresolved until the next batch');
      return undefined;
    }
  }

  /**
   * The changed texts judged, their verdicts stored, then the texts themselves: a failure or a stop
   * part way leaves those texts unstored, so they count as changed again next time.
   */
  async function acceptNow(texts: readonly MarketText[]): Promise<number> {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    await loading;
    const at = now();
    const changed: StoredMarketText[] = [];
    for (const text of texts) {
      const marketId = marketIdOf(text);
      const hash = textHash(text);
      if (hashes.get(marketId) !== hash) changed.push({ marketId, text, hash, claim: rules.claimOf(text), updatedAt: at });
    }
    if (changed.length === 0) return 0;
    const startedAt = Date.now();
    for (const c of changed) index.put(c.marketId, c.text.venue, rules.keysOf(c.text));
    const batch = new Map(changed.map((c) => [c.marketId, c]));
    const models: ModelBudget = { left: MODEL_QUESTIONS_PER_BATCH };
    let judged = 0;
    const done: StoredMarketText[] = [];
    for (const c of changed) {
      if (stopping) break;
      const pairs = await judgeAgainstCandidates(c, batch, models);
      if (pairs === undefined) break;
      judged += pairs;
      done.push(c);
      // The embedded store answers synchronously: without a turn of the event loop between markets,
      // a first batch of thousands would hold every request for its whole length.
      await nextTurn();
    }
    await repo.upsertTexts(done);
    for (const c of done) hashes.set(c.marketId, c.hash);
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
