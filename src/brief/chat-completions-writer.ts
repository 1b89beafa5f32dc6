/**
 * A brief written by a model behind an OpenAI-compatible chat-completions endpoint (OpenAI, Ollama,
 * vLLM, LM Studio, a proxy...). The whole call, retries included, stays within one time budget so the
 * request that happens to generate the day's brief never waits longer than that; anything that goes
 * wrong is thrown as an LlmError for the caller to fall back on. Errors never carry the key or the
 * provider's body (providers echo keys in their error messages).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { isTimeoutError, parseRetryAfter } from '../net/fetch-failures.js';
import type { BriefInput, BriefWriter } from './brief-input.js';
import { formatPercent, formatPoints, formatVolume } from './format.js';

interface ChatCompletionsOptions {
  /** e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
  /** Budget for the whole call, retries included. */
  timeoutMs: number;
  /** Further attempts after a timeout, a network error, a 429 or a 5xx (default 2). */
  retries?: number;
  /** First pause between attempts; doubles each time, with jitter (default 250 ms). */
  backoffMs?: number;
  /** Told about each failed attempt, for logs. */
  onAttemptFailed?: (failure: { attempt: number; reason: string; retrying: boolean }) => void;
}

export class LlmError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    /** Seconds the provider asked us to wait (Retry-After), if any. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'LlmError';
  }
}

const completionSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().trim().min(1, 'empty answer') }) })).min(1, 'no choices'),
});

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
  const movements = input.movements.map((m) => `- ${m.question} | ${m.oldPct}% -> ${m.newPct}% (${formatPoints(m.deltaPts)})`);
  return [
    `Date: ${input.date} (UTC).`,
    'Most active markets:',
    ...(markets.length ? markets : ['(none)']),
    'Movements of more than 5 points in the last 24 hours:',
    ...(movements.length ? movements : ['(none)']),
  ].join('\n');
}

async function attempt(options: ChatCompletionsOptions, body: string, budgetMs: number): Promise<string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  let response: Response;
  try {
    response = await fetch(`${options.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(budgetMs),
    });
  } catch (error) {
    throw new LlmError(isTimeoutError(error) ? `no answer within ${budgetMs} ms` : 'network error', true);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    const retryable = response.status === 429 || response.status >= 500;
    throw new LlmError(`provider answered HTTP ${response.status}`, retryable, parseRetryAfter(response.headers.get('retry-after')));
  }
  let json: unknown;
  try {
    json = await response.json();
  } catch (error) {
    const timedOut = isTimeoutError(error);
    throw new LlmError(timedOut ? `answer not complete within ${budgetMs} ms` : 'answer is not JSON', timedOut);
  }
  const parsed = completionSchema.safeParse(json);
  if (!parsed.success) {
    throw new LlmError(`malformed answer: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`, false);
  }
  return parsed.data.choices[0]!.message.content.slice(0, MAX_BRIEF_CHARS);
}

export function createChatCompletionsWriter(options: ChatCompletionsOptions): BriefWriter {
  const retries = options.retries ?? 2;
  const backoffMs = options.backoffMs ?? 250;
  return {
    name: options.model,
    async write(input) {
      const deadline = Date.now() + options.timeoutMs;
      const body = JSON.stringify({
        model: options.model,
        temperature: 0.3,
        messages: [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: briefPrompt(input) },
        ],
      });
      for (let n = 0; ; n++) {
        try {
          return await attempt(options, body, Math.max(1, deadline - Date.now()));
        } catch (error) {
          const failure = error instanceof LlmError ? error : new LlmError('unexpected failure', false);
          // Exponential backoff with full jitter, or what the provider asked for, if it fits the budget.
          const pause = failure.retryAfterMs ?? backoffMs * 2 ** n * (0.5 + Math.random() / 2);
          const retrying = failure.retryable && n < retries && Date.now() + pause < deadline - 50;
          options.onAttemptFailed?.({ attempt: n + 1, reason: failure.message, retrying });
          if (!retrying) throw failure;
          await sleep(pause);
        }
      }
    },
  };
}
