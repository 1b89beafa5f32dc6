/**
 * One OpenAI-compatible chat-completions client (OpenAI, Ollama, vLLM, LM Studio, a proxy...) for
 * whatever asks a model: the morning brief, the market links' unresolved pairs. The whole call,
 * retries included, stays within one time budget; anything that goes wrong is thrown as an LlmError
 * for the caller to fall back on. Errors never carry the key or the provider's body (providers echo
 * keys in their error messages).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { isTimeoutError, parseRetryAfter } from './fetch-failures.js';
import { sendTraced, traceAnswer, traceNoAnswer } from '../telemetry/outgoing.js';
import type { SpanHandle } from '../telemetry/tracing.js';

export interface ChatCompletionsOptions {
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
  /** Ends the call at once (a stop): the answer is then an LlmError, not retried. */
  signal?: AbortSignal | undefined;
}

export class LlmError extends Error {
  readonly retryable: boolean;
  /** Seconds the provider asked us to wait (Retry-After), if any. */
  readonly retryAfterMs: number | undefined;

  constructor(message: string, retryable: boolean, retryAfterMs?: number) {
    super(message);
    this.retryable = retryable;
    this.retryAfterMs = retryAfterMs;
    this.name = 'LlmError';
  }
}

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

const completionSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().trim().min(1, 'empty answer') }) })).min(1, 'no choices'),
});

/** One attempt, in a client span carrying its `traceparent` when traced. */
function attempt(options: ChatCompletionsOptions, body: string, budgetMs: number): Promise<string> {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  return sendTraced('POST', url, 'public', (traceHeaders, span) =>
    span
      ? attemptOnce(url, options, body, budgetMs, traceHeaders, span).catch((error: unknown) => failedSpan(span, error))
      : attemptOnce(url, options, body, budgetMs, traceHeaders),
  );
}

/** A failed attempt's span says how it failed (an answered one's status says it already). */
function failedSpan(span: SpanHandle, error: unknown): never {
  if (error instanceof LlmError && !error.message.startsWith('provider answered')) traceNoAnswer(span, error.retryable ? 'network' : 'answer');
  throw error;
}

async function attemptOnce(
  url: string,
  options: ChatCompletionsOptions,
  body: string,
  budgetMs: number,
  traceHeaders: Readonly<Record<string, string>>,
  span?: SpanHandle,
): Promise<string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json', ...traceHeaders };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers,
      body,
      signal: options.signal ? AbortSignal.any([AbortSignal.timeout(budgetMs), options.signal]) : AbortSignal.timeout(budgetMs),
    });
  } catch (error) {
    throw new LlmError(isTimeoutError(error) ? `no answer within ${budgetMs} ms` : 'network error', true);
  }
  if (span) traceAnswer(span, response.status);
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
  return parsed.data.choices[0]!.message.content;
}

/** The model's answer to `messages`, within the options' budget, retried where the failure allows. */
export async function complete(options: ChatCompletionsOptions, messages: readonly ChatMessage[], temperature: number): Promise<string> {
  const retries = options.retries ?? 2;
  const backoffMs = options.backoffMs ?? 250;
  const deadline = Date.now() + options.timeoutMs;
  const body = JSON.stringify({ model: options.model, temperature, messages });
  for (let n = 0; ; n++) {
    try {
      return await attempt(options, body, Math.max(1, deadline - Date.now()));
    } catch (error) {
      const failure = error instanceof LlmError ? error : new LlmError('unexpected failure', false);
      // Exponential backoff with full jitter, or what the provider asked for, if it fits the budget.
      const pause = failure.retryAfterMs ?? backoffMs * 2 ** n * (0.5 + Math.random() / 2);
      const retrying = failure.retryable && !options.signal?.aborted && n < retries && Date.now() + pause < deadline - 50;
      options.onAttemptFailed?.({ attempt: n + 1, reason: failure.message, retrying });
      if (!retrying) throw failure;
      await sleep(pause);
    }
  }
}
