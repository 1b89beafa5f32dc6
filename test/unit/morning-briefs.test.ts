/**
 * The day's brief is written once however many ask, and its save is not bound by the deadline of the
 * request that happened to ask first: on PostgreSQL that request may have had only milliseconds left
 * when the writer's seconds began, and the brief, written, would be lost.
 */
import pino from 'pino';
import { createMorningBriefService } from '../../src/brief/morning-briefs.js';
import type { MorningBrief } from '../../src/domain/prediction.js';
import type { PredictionReadModel } from '../../src/readmodel/prediction-read-model.js';
import type { PredictionRepository } from '../../src/store/prediction.js';
import { currentStoreDeadline, withinStoreDeadline } from '../../src/store/store-deadline.js';

const NOW = Date.parse('2026-11-29T09:00:00Z');

it("writes the brief once for every request that asks, and saves it outside the first request's deadline", async () => {
  const saved: { brief: MorningBrief; deadline: number | undefined }[] = [];
  const repo = {
    getBrief: async () => undefined,
    saveBriefOnce: async (brief: MorningBrief) => {
      saved.push({ brief, deadline: currentStoreDeadline() });
      return brief;
    },
  } as unknown as PredictionRepository;
  const readModel = {
    top: () => [{ market: { question: 'Will it rain?', prob: 0.6, volume24h: 1_000, source: 'demo' }, move24hPts: 2 }],
    latestAlerts: () => [],
  } as unknown as PredictionReadModel;
  let writes = 0;
  const composer = {
    write: async () => {
      writes++;
      await new Promise((r) => setTimeout(r, 20)); // a writer's call, longer than what the first request has left
      return { text: 'Rain is likely.', writer: 'test-model' };
    },
  };
  const briefs = createMorningBriefService({ repo, readModel, composer, hourUtc: 6, now: () => NOW, logger: pino({ level: 'silent' }) });

  const [first, second] = await Promise.all([withinStoreDeadline(performance.now() + 5, () => briefs.today()), briefs.today()]);
  expect(first).toEqual(second);
  expect(first).toMatchObject({ date: '2026-11-29', brief: 'Rain is likely.', writer: 'test-model' });
  expect(writes).toBe(1);
  expect(saved).toHaveLength(1);
  expect(saved[0]!.deadline).toBeUndefined();
});
