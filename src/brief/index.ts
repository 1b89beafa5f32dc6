/**
 * The writer the morning brief uses: the configured model when LLM_BASE_URL is set, falling back to
 * the built-in writer whenever the model fails, so a brief is always produced.
 */
import type { Logger } from 'pino';
import type { BriefInput } from './brief-input.js';
import { builtinWriter } from './builtin-writer.js';
import { createChatCompletionsWriter } from './chat-completions-writer.js';
import type { BriefComposer } from './morning-briefs.js';

interface BriefWriterConfig {
  llmBaseUrl?: string | undefined;
  llmModel: string;
  llmApiKey?: string | undefined;
  llmTimeoutMs: number;
  /** For tests: further attempts and first backoff of the model writer. */
  llmRetries?: number;
  llmBackoffMs?: number;
}

export function createBriefWriter(config: BriefWriterConfig, logger: Logger): BriefComposer {
  if (!config.llmBaseUrl) return { write: async (input) => ({ text: await builtinWriter.write(input), writer: builtinWriter.name }) };

  const model = createChatCompletionsWriter({
    baseUrl: config.llmBaseUrl,
    model: config.llmModel,
    apiKey: config.llmApiKey,
    timeoutMs: config.llmTimeoutMs,
    retries: config.llmRetries,
    backoffMs: config.llmBackoffMs,
    // The reason never holds the key nor the provider's body (see chat-completions-writer).
    onAttemptFailed: ({ attempt, reason, retrying }) =>
      logger.warn({ model: config.llmModel, attempt, reason, retrying }, 'morning brief model attempt failed'),
  });

  return {
    async write(input: BriefInput) {
      try {
        return { text: await model.write(input), writer: model.name };
      } catch (error) {
        logger.warn({ model: model.name, reason: (error as Error).message }, 'morning brief model failed, using the built-in writer');
        return { text: await builtinWriter.write(input), writer: builtinWriter.name };
      }
    },
  };
}
