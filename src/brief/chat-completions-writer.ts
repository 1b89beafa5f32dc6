/**
 * A brief written by a model behind an OpenAI-compatible chat-completions endpoint (src/net's client).
 * The whole call, retries included, stays within one time budget so the request that happens to
 * generate the day's brief never waits longer than that; a failure is an LlmError for the caller to
 * fall back on.
 */
import { type ChatCompletionsOptions, type ChatMessage, complete } from '../net/chat-completions.js';
import type { BriefInput, BriefWriter } from './brief-input.js';
import { formatPercent, formatPercentBefore, formatPoints, formatVolume } from './format.js';

export { LlmError } from '../net/chat-completions.js';

const MAX_BRIEF_CHARS = 6_000;

const SYSTEM_PROMPT = [
  'You write the morning brief of a prediction-market data service for traders.',
  'Write 4 to 8 plain-text sentences in English, no markdown, no headings, no advice.',
  'Lead with the most active markets, then the largest probability movements.',
  'Use only the facts given; quote probabilities in percent and movements in points.',
].join(' ');

/** The facts as lines a model reads well; the numbers are formatted exactly as clients see them. */
export function briefPrompt(input: BriefInput): string {
  const markets = input.markets.map(
    (m, i) =>
      `${i + 1}. ${m.question} | ${formatPercent(m.prob)} | 24h volume ${formatVolume(m.volume24h)} (${m.source})` +
      (m.move24hPts === null ? '' : ` | 24h move ${formatPoints(m.move24hPts)}`),
  );
  const movements = input.movements.map(
    (m) => `- ${m.question} | ${formatPercentBefore(m.prob, m.move24hPts)} -> ${formatPercent(m.prob)} (24h move ${formatPoints(m.move24hPts)})`,
  );
  return [
    `Date: ${input.date} (UTC).`,
    'Most active markets:',
    ...(markets.length ? markets : ['(none)']),
    'Movements of more than 5 points in the last 24 hours:',
    ...(movements.length ? movements : ['(none)']),
  ].join('\n');
}

export function createChatCompletionsWriter(options: ChatCompletionsOptions): BriefWriter {
  return {
    name: options.model,
    async write(input) {
      const messages: ChatMessage[] = [
        { role: 'system', content: SYSTEM_PROMPT },
        { role: 'user', content: briefPrompt(input) },
      ];
      return (await complete(options, messages, 0.3)).slice(0, MAX_BRIEF_CHARS);
    },
  };
}
