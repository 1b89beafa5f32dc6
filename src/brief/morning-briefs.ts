/**
 * The morning brief of D10: one per UTC date, generated once (at BRIEF_HOUR_UTC by the scheduler,
 * or by the first request of the date if none exists yet), stored, and served unchanged after.
 * Concurrent requests of the same date share one generation; across processes the store keeps
 * the first brief saved.
 */
import type { Logger } from 'pino';
import type { MorningBrief } from '../domain/prediction.js';
import { createTicker } from '../ingest/ticker.js';
import type { PredictionReadModel } from '../readmodel/prediction-read-model.js';
import type { PredictionRepository } from '../store/prediction.js';
import { outsideStoreDeadline } from '../deadline/request-deadline.js';
import { inBackground } from '../telemetry/background.js';
import type { BriefInput } from './brief-input.js';
import { BUILTIN_WRITER, composeBuiltinBrief } from './builtin-writer.js';
import { utcDate } from '../domain/time.js';
import { MOVEMENT_THRESHOLD_PTS } from '../prediction/movement-detector.js';

const BRIEF_MARKETS = 10;
const BRIEF_MOVEMENTS = 10;
const SCHEDULE_CHECK_MS = 60_000;

export interface BriefComposer {
  write(input: BriefInput): Promise<{ text: string; writer: string }>;
}

interface MorningBriefOptions {
  repo: PredictionRepository;
  readModel: PredictionReadModel;
  composer: BriefComposer;
  /** UTC hour at which the scheduler writes the day's brief. */
  hourUtc: number;
  now: () => number;
  logger: Logger;
}

/**
 * The facts a brief is written from: the most active markets now, and the largest 24-hour moves of
 * the ranked markets, both from the one 24-hour figure of the read model (`move24hPts`): a market's
 * line and its movement cannot disagree (the movement alerts measure from a baseline that may be
 * older than a day, and are the alerts endpoint's).
 */
function briefInput(readModel: PredictionReadModel, date: string, now: number): BriefInput {
  const ranked = readModel.top(Number.MAX_SAFE_INTEGER, now);
  const markets = ranked.slice(0, BRIEF_MARKETS).map(({ market, move24hPts }) => ({
    question: market.question,
    prob: market.prob,
    volume24h: market.volume24h,
    source: market.source,
    move24hPts,
  }));
  const movements = ranked
    .flatMap(({ market, move24hPts }) =>
      move24hPts !== null && Math.abs(move24hPts) > MOVEMENT_THRESHOLD_PTS ? [{ question: market.question, prob: market.prob, move24hPts }] : [],
    )
    // Largest first; among equal moves, the busier market first (the ranking's order, kept by a stable sort).
    .sort((a, b) => Math.abs(b.move24hPts) - Math.abs(a.move24hPts))
    .slice(0, BRIEF_MOVEMENTS);
  return { date, markets, movements };
}

export function createMorningBriefService(options: MorningBriefOptions) {
  const { repo, readModel, composer, logger } = options;
  const inFlight = new Map<string, Promise<MorningBrief & { provisional?: true }>>();
  let latest: MorningBrief | undefined;

  async function generate(date: string): Promise<MorningBrief & { provisional?: true }> {
    const existing = await repo.getBrief(date);
    if (existing) return existing;
    const started = Date.now();
    const now = options.now();
    const input = briefInput(readModel, date, now);
    if (input.markets.length === 0) {
      // No data yet (live feeds still on their first poll): answer, but do not freeze an empty brief for the day.
      return { date, brief: composeBuiltinBrief(input), writer: BUILTIN_WRITER, generatedAt: now, provisional: true };
    }
    const { text, writer } = await composer.write(input);
    const stored = await repo.saveBriefOnce({ date, brief: text, writer, generatedAt: now });
    logger.info({ date, writer: stored.writer, ms: Date.now() - started }, 'morning brief ready');
    return stored;
  }

  /** The date's brief: from memory, the store, or written now (once, however many ask at the same time). */
  async function briefOf(date: string): Promise<MorningBrief> {
    if (latest?.date === date) return latest;
    let pending = inFlight.get(date);
    if (!pending) {
      // Shared, and its save comes after the writer's seconds: no one request's deadline bounds it.
      pending = outsideStoreDeadline(() =>
        inBackground(
          'morning brief',
          () => ({ 'mgw.brief.date': date }),
          () => generate(date),
        ),
      ).finally(() => inFlight.delete(date));
      inFlight.set(date, pending);
    }
    const { provisional, ...brief } = await pending;
    if (!provisional && (!latest || latest.date <= brief.date)) latest = brief;
    return brief;
  }

  const scheduler = createTicker({
    everyMs: SCHEDULE_CHECK_MS,
    name: 'morning brief schedule',
    logger,
    run: async () => {
      const now = options.now();
      if (new Date(now).getUTCHours() >= options.hourUtc) await briefOf(utcDate(now));
    },
  });

  return {
    /** Today's brief (UTC). */
    today: () => briefOf(utcDate(options.now())),
    start: () => scheduler.start(),
    stop: () => scheduler.stop(),
  };
}

export type MorningBriefService = ReturnType<typeof createMorningBriefService>;
