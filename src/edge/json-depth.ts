/**
 * How deep request JSON may nest, for every body and parameter a transport reads: the /graphql body
 * and its GET parameters as text, before they are parsed; the variables a subscription library
 * parsed for us as a value. Without the bound, a value nested thousands deep (used or not) reaches
 * code that recurses over it (JSON.stringify making the kept answers' key, graphql's coercion) and
 * overflows the stack: a 500 with a stack in the log. A 400 names the bound instead. 64 is far above
 * the deepest input of the schema.
 */
import { ApiError } from '../domain/refusal.js';

export const MAX_JSON_DEPTH = 64;

export const tooDeepJson = () => new ApiError(400, `request JSON nested deeper than ${MAX_JSON_DEPTH} levels`);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/** Whether JSON text nests at most `max` arrays and objects deep: one pass over the text, strings skipped, nothing parsed. */
export function jsonTextWithinDepth(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return false;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return true;
}

/** The same for a value already parsed, walked without recursion (a recursive walk would overflow as well). */
export function valueWithinDepth(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= max) return false;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return true;
}
