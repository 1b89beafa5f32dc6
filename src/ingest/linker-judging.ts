/**
 * Judging one changed market against its candidates from other venues: the rules first, the model
 * (where one is configured) on the pairs they leave unresolved, within the batch's budget.
 */
import type { Logger } from 'pino';
import type { LinkVerdict, MarketText, PriceClaim } from '../domain/links.js';
import type { createCandidateIndex } from '../links/candidate-index.js';
import type { MarketLinkRepository, StoredMarketText } from '../store/market-links.js';

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

export interface ModelBudget {
  left: number;
}

/** What judging reads, from the linker: `stopping` and `signal` are asked each time (stop() changes them). */
export interface Judging {
  repo: MarketLinkRepository;
  rules: LinkingRules;
  now: () => number;
  logger: Logger;
  index: ReturnType<typeof createCandidateIndex>;
  stopping: () => boolean;
  signal: () => AbortSignal;
}

/**
 * Judges one changed market against its candidates and stores the verdicts. A candidate of the
 * same batch (the demo's venues arrive together) is read from the batch, not yet from the store.
 */
export async function judgeAgainstCandidates(
  judging: Judging,
  changed: StoredMarketText,
  batch: ReadonlyMap<string, StoredMarketText>,
  models: ModelBudget,
): Promise<number | undefined> {
  const { repo, rules, now, index } = judging;
  const ids = index.candidates(changed.marketId);
  const candidates = [...ids.flatMap((id) => batch.get(id) ?? []), ...(await repo.textsByIds(ids.filter((id) => !batch.has(id))))];
  const verdicts = [];
  for (const other of candidates) {
    const verdict = rules.judge(changed.text, other.text);
    const byModel = verdict.relation === 'unresolved' ? await askModel(judging, changed.text, other.text, verdict, models) : undefined;
    verdicts.push(
      byModel ? { otherId: other.marketId, verdict: byModel, decidedBy: 'model' as const } : { otherId: other.marketId, verdict, decidedBy: 'rules' as const },
    );
  }
  // Stopped meanwhile: a model question may have been cut short, so the market is judged again next time.
  if (judging.stopping()) return undefined;
  await repo.replaceVerdicts(changed.marketId, verdicts, now());
  return verdicts.length;
}

/** The model's verdict on an unresolved pair, within the batch's budget; a failure ends the asking for the batch. */
async function askModel(judging: Judging, a: MarketText, b: MarketText, verdict: LinkVerdict, models: ModelBudget): Promise<LinkVerdict | undefined> {
  const { rules, logger } = judging;
  if (!rules.askModel || models.left <= 0 || judging.stopping()) return undefined;
  models.left--;
  try {
    return await rules.askModel(a, b, verdict, judging.signal());
  } catch (error) {
    models.left = 0;
    if (!judging.stopping()) logger.warn({ err: error }, 'market links: the model did not answer; unresolved pairs stay unresolved until the next batch');
    return undefined;
  }
}
