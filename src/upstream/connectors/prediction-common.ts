/** What the prediction connectors share: pricing from a book, questions that name their YES outcome, the batch. */
import type { MarketText } from '../../domain/links.js';
import type { PredictionMarketMeta, ProbabilityObservation } from '../../domain/prediction.js';
import { roundProb } from '../../prediction/percent.js';
import { countEach, distinctQuestions } from '../../prediction/questions.js';
import type { PredictionBatch, SkippedItems } from '../connector.js';
import type { ItemProblems } from '../validate.js';

export interface MappedMarket {
  /** `question` is the platform's title as it stands; the batch qualifies it with `outcome` where needed. */
  meta: PredictionMarketMeta;
  /** The name of the outcome that YES stands for, when the platform gives one (`Duke`, `Before Jul 1, 2026`). */
  outcome?: string | null | undefined;
  /**
   * The title names other outcomes too, so naming YES's is not enough: a game between two teams,
   * or a title that other markets of the event share (one market per outcome).
   */
  titleNamesOthers?: boolean | undefined;
  prob: number;
  volume24h: number;
  /** The platform's own 24-hour move, in points, where it reports one. */
  move24hPts?: number | null | undefined;
  /** What the venue publishes about the market beyond its title, for the market links' judge. */
  text?: Omit<MarketText, 'venue' | 'id' | 'question'> | undefined;
}

/** An ISO 8601 instant to epoch ms; null when absent or unreadable. */
export const instantOrNull = (iso: string | null | undefined): number | null => {
  const ms = iso ? Date.parse(iso) : Number.NaN;
  return Number.isFinite(ms) ? ms : null;
};

/** A price change as a fraction of 1 (0.3245) in probability points (32.45), unrounded: the edge rounds it once. */
export const pointsOf = (fraction: number): number => fraction * 100;

/**
 * Last trade when there was one; else the middle of a two-sided quote (a bid above 0 and an ask
 * below 1: a side at 0 or 1 is no side at all); else none: the market cannot be priced.
 */
export function priceFromBook(book: { last?: number | undefined; bid?: number | undefined; ask?: number | undefined }): number | undefined {
  const { last, bid, ask } = book;
  if (last !== undefined && last > 0 && last <= 1) return last;
  if (bid !== undefined && ask !== undefined && bid > 0 && ask < 1 && bid <= ask) return (bid + ask) / 2;
  return undefined;
}

const mentions = (text: string, name: string): boolean => text.toLowerCase().includes(name.toLowerCase());
const upstreamId = (m: MappedMarket): string => m.meta.id.slice(m.meta.id.indexOf(':') + 1);

/**
 * Questions that say which outcome YES is: a title that does not name the outcome, or that other
 * markets share ("Siena at Duke Winner?" for Siena and for Duke), becomes "Siena at Duke Winner?
 * (Duke)"; a title still shared after that gets the market's own id.
 */
function qualifyQuestions(mapped: readonly MappedMarket[]): MappedMarket[] {
  const titles = countEach(mapped.map((m) => m.meta.question));
  const named = mapped.map(({ meta: { question }, outcome, titleNamesOthers }) => {
    const name = outcome?.trim();
    const qualify = name && !/^(yes|no)$/i.test(name) && (!mentions(question, name) || titleNamesOthers || titles.get(question)! > 1);
    return qualify ? `${question} (${name})` : question;
  });
  const questions = distinctQuestions(named, [(i) => upstreamId(mapped[i]!)]);
  return mapped.map((m, i) => (questions[i] === m.meta.question ? m : { ...m, meta: { ...m.meta, question: questions[i]! } }));
}

interface BatchExtras {
  /** Items left out on purpose, by reason. */
  skipped?: SkippedItems;
  /** False when the poll stopped before the source's last page (a rate limit, a failed page). */
  complete?: boolean;
}

/** The batch of one poll: every observation stamped with the poll time, prob to 4 decimals (D7), whole volumes. */
export function predictionBatch(
  source: string,
  mapped: readonly MappedMarket[],
  now: number,
  problems: ItemProblems,
  { skipped = {}, complete = true }: BatchExtras = {},
): PredictionBatch {
  const seen = new Set<string>();
  const distinct = mapped.filter((m) => !seen.has(m.meta.id) && seen.add(m.meta.id));
  const unique = qualifyQuestions(distinct);
  return {
    kind: 'prediction',
    source,
    observedAt: now,
    markets: unique.map((m) => m.meta),
    observations: unique.map(
      (m): ProbabilityObservation => ({
        marketId: m.meta.id,
        prob: roundProb(m.prob),
        volume24h: Math.max(0, Math.round(m.volume24h)),
        observedAt: now,
        sourceMove24hPts: m.move24hPts ?? null,
      }),
    ),
    // The platform's own title, not the qualified one: the judge reads the YES side on its own.
    texts: distinct.flatMap((m): MarketText[] =>
      m.text ? [{ venue: source, id: upstreamId(m), question: m.meta.question, ...m.text, yesSide: m.text.yesSide ?? m.outcome ?? null }] : [],
    ),
    problems,
    skipped,
    complete,
  };
}

/** Adds one to a reason's count. */
export const skip = (skipped: SkippedItems, reason: string): void => {
  skipped[reason] = (skipped[reason] ?? 0) + 1;
};
