/**
 * The market links' model: the OpenAI-compatible endpoint the morning brief uses (LLM_BASE_URL),
 * asked about a pair the rules left unresolved. What it may decide is links/model-question.ts's.
 */
import type { LinkVerdict, MarketText } from '../domain/links.js';
import { MODEL_SYSTEM_PROMPT, modelPrompt, parseModelAnswer, verdictFromModel } from '../links/model-question.js';
import { complete } from '../net/chat-completions.js';

interface LinkModelOptions {
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
  timeoutMs: number;
}

export function createLinkModel(options: LinkModelOptions) {
  return async (a: MarketText, b: MarketText, rules: LinkVerdict, signal?: AbortSignal): Promise<LinkVerdict | undefined> => {
    const answer = await complete(
      { ...options, signal },
      [
        { role: 'system', content: MODEL_SYSTEM_PROMPT },
        { role: 'user', content: modelPrompt(a, b, rules) },
      ],
      0,
    );
    return verdictFromModel(rules, parseModelAnswer(answer));
  };
}
