/**
 * Validation of upstream payloads with zod: the envelope must be right (or the whole poll fails,
 * keeping the last good data), each item is checked on its own (a bad item is skipped and
 * counted, the rest of the batch is kept).
 */
import type { z } from 'zod';
import { UpstreamError } from './errors.js';

export interface ItemProblems {
  /** Items dropped because they did not match the schema. */
  invalid: number;
  /** A few examples, for the log: `[index] path: message`. */
  examples: string[];
}

const EXAMPLES_KEPT = 3;

/** The envelope or it throws a schema UpstreamError (never echoing the payload). */
export function parseEnvelope<S extends z.ZodType>(source: string, schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new UpstreamError(source, 'schema', `${what} changed shape: ${issue ? `${issue.path.join('.') || '(root)'} ${issue.message}` : 'invalid'}`);
}

/** Every item that matches, and a count of those that did not. */
export function parseItems<S extends z.ZodType>(schema: S, items: readonly unknown[]): { items: z.output<S>[]; problems: ItemProblems } {
  const valid: z.output<S>[] = [];
  const problems: ItemProblems = { invalid: 0, examples: [] };
  items.forEach((item, index) => {
    const parsed = schema.safeParse(item);
    if (parsed.success) {
      valid.push(parsed.data);
      return;
    }
    problems.invalid++;
    if (problems.examples.length < EXAMPLES_KEPT) {
      const issue = parsed.error.issues[0];
      problems.examples.push(`[${index}] ${issue ? `${issue.path.join('.') || '(item)'}: ${issue.message}` : 'invalid'}`);
    }
  });
  return { items: valid, problems };
}

/** Merges the problems of several item lists of one poll. */
export function mergeProblems(...all: ItemProblems[]): ItemProblems {
  return {
    invalid: all.reduce((n, p) => n + p.invalid, 0),
    examples: all.flatMap((p) => p.examples).slice(0, EXAMPLES_KEPT),
  };
}
