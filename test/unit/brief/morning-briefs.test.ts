/**
 * The day's brief agrees with itself (its list and its movements read one 24-hour figure), and is written once however many ask, and its save is not bound by the deadline of the
 * request that happened to ask first: on PostgreSQL that request may have had only milliseconds left
 * when the writer's seconds began, and the brief, written, would be lost.
 */
import pino from 'pino';
import type { BriefInput } from '../../../src/brief/brief-input.js';
import { composeBuiltinBrief } from '../../../src/brief/builtin-writer.js';
import { createMorningBriefService } from '../../../src/brief/morning-briefs.js';
import type { MorningBrief } from '../../../src/domain/prediction.js';
import type { PredictionReadModel } from '../../../src/readmodel/prediction-read-model.js';
import type { PredictionRepository } from '../../../src/store/prediction.js';
import { currentStoreDeadline, withinStoreDeadline } from '../../../src/deadline/request-deadline.js';

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

it('the list and the movements read the same 24-hour figure: one number per fact', async () => {
  const market = (question: string, prob: number, volume24h: number, move24hPts: number | null) => ({
    market: { question, prob, volume24h, source: 'demo' },
    move24hPts,
  });
  const readModel = {
    top: () => [
      market('Will Democrats win the House?', 0.684, 28_400_000, 3.2),
      market('Will the Fed cut in December?', 0.1621, 640_000, -13.3),
      market('Will it snow in Paris?', 0.3, 9_000, 6.04),
      market('Will a new market open?', 0.1, 900, null),
    ],
    // A movement alert measured from an older baseline: not the brief's figure.
    latestAlerts: () => [{ question: 'Will the Fed cut in December?', oldPct: 31.36, newPct: 14.21, deltaPts: -17.2, detectedAt: NOW - 3_600_000 }],
  } as unknown as PredictionReadModel;
  const repo = { getBrief: async () => undefined, saveBriefOnce: async (brief: MorningBrief) => brief } as unknown as PredictionRepository;
  const composer = { write: async (input: BriefInput) => ({ text: composeBuiltinBrief(input), writer: 'builtin' }) };
  const briefs = createMorningBriefService({ repo, readModel, composer, hourUtc: 6, now: () => NOW, logger: pino({ level: 'silent' }) });

  const { brief } = await briefs.today();
  expect(brief).toContain('2. Will the Fed cut in December? 16% (-13.3 pts in 24h; $640K traded on demo).');
  expect(brief).toContain('- Will the Fed cut in December? fell to 16% (-13.3 pts in 24h, from 29%).');
  expect(brief).toContain('- Will it snow in Paris? rose to 30% (+6 pts in 24h, from 24%).');
  // Largest move first; 3.2 points is not a movement (more than 5, as the alerts).
  expect(brief.indexOf('Fed cut in December? fell')).toBeLessThan(brief.indexOf('snow in Paris? rose'));
  expect(brief).not.toContain('Democrats win the House? rose');
  expect(brief).not.toMatch(/31\.36|14\.21|17\.2/);
});
