/**
 * Query parameters of the facades: one spec per parameter, with a zod schema of its meaning
 * (validation here, JSON Schema in the OpenAPI document) and the message D5 asks for.
 */
import { z } from 'zod';
import { ApiError, badRequest } from '../domain/refusal.js';

export interface ParamSpec {
  name: string;
  description: string;
  required: boolean;
  /** The meaning of the value; its JSON Schema goes into OpenAPI. */
  schema: z.ZodType;
  /** Raw string -> candidate value (before the schema checks it). */
  coerce(raw: string): unknown;
  /** Said when the value is missing or refused: what is wrong and what is allowed. */
  message: string;
  /** A more precise message for a given refused value, where one helps (too long, say). */
  messageFor?(raw: string): string | undefined;
  default?: unknown;
  example?: string;
}

export function enumParam(name: string, values: readonly [string, ...string[]], description: string, defaultValue?: string): ParamSpec {
  return {
    name,
    description,
    required: false,
    schema: defaultValue === undefined ? z.enum(values) : z.enum(values).default(defaultValue),
    coerce: (raw) => raw,
    message: `${name} must be one of ${values.join(', ')}`,
    // Exact and lower case (D6); GraphQL spells the same values upper case (CRYPTO): say which is meant.
    messageFor: (raw) =>
      raw !== raw.toLowerCase() && values.includes(raw.toLowerCase())
        ? `${name} must be one of ${values.join(', ')}, in lower case: ${raw.toLowerCase()}, not ${raw}${raw === raw.toUpperCase() ? ' (the GraphQL spelling)' : ''}`
        : undefined,
    ...(defaultValue === undefined ? {} : { default: defaultValue }),
  };
}

// Any number of digits: a huge value is still "above the maximum" (clamped or refused by its bound, D6).
const INTEGER = /^[+-]?\d+$/;

/**
 * An integer within bounds. With `clampAbove`, a value above `max` is taken as `max` instead of
 * refused (variant B's alerts `limit`, D6), so the documented schema has no maximum.
 */
export function intParam(name: string, bounds: { min: number; max?: number; default: number; clampAbove?: boolean }, description: string): ParamSpec {
  const { min, max, clampAbove = false } = bounds;
  let schema = z.number().int().min(min);
  if (max !== undefined && !clampAbove) schema = schema.max(max);
  const parse = (raw: string) => (INTEGER.test(raw.trim()) ? Number(raw.trim()) : Number.NaN);
  return {
    name,
    description: clampAbove && max !== undefined ? `${description}; values above ${max} are taken as ${max}` : description,
    required: false,
    schema: schema.default(bounds.default),
    coerce: clampAbove && max !== undefined ? (raw) => Math.min(parse(raw), max) : parse,
    message:
      max === undefined || clampAbove
        ? `${name} must be an integer >= ${min}${clampAbove ? ` (values above ${max} are taken as ${max})` : ''}`
        : `${name} must be an integer from ${min} to ${max}`,
    default: bounds.default,
  };
}

export function stringParam(name: string, options: { required: boolean; description: string; example?: string; maxLength: number }): ParamSpec {
  const schema = z.string().trim().min(1).max(options.maxLength);
  return {
    name,
    description: options.description,
    required: options.required,
    schema: options.required ? schema : schema.optional(),
    coerce: (raw) => raw,
    message: options.required ? `${name} is required: ${options.description}` : `${name} must be a non-empty string of at most ${options.maxLength} characters`,
    messageFor: (raw) =>
      raw.trim().length > options.maxLength ? `${name} is too long: at most ${options.maxLength} characters, got ${raw.trim().length}` : undefined,
    ...(options.example ? { example: options.example } : {}),
  };
}

/** Validates the known parameters of a route (D6): unknown names are ignored. */
export function parseParams(specs: readonly ParamSpec[], query: RawQuery): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const spec of specs) {
    if (nestedForms(query, spec.name).length > 0) {
      throw badRequest(`${spec.name} must be a plain value (${spec.name}=...), not a nested form`);
    }
    const values = query.get(spec.name);
    if (values && values.length > 1) throw badRequest(`${spec.name} must be given at most once`);
    const raw = values?.[0];
    if (raw === undefined) {
      if (spec.required) throw badRequest(spec.message);
      out[spec.name] = spec.default;
      continue;
    }
    // An empty value (`type=`) is a value like any other, and refused by the schema.
    const parsed = spec.schema.safeParse(spec.coerce(raw));
    if (!parsed.success) throw badRequest(spec.messageFor?.(raw) ?? spec.message);
    out[spec.name] = parsed.data;
  }
  return out;
}

/**
 * The query's names that no spec reads (D6 ignores them), for the answer to say so
 * (`X-Ignored-Parameters`): a typo such as `lmit=5` is seen, and legacy clients keep working.
 * Names are percent-encoded (a header carries no arbitrary bytes), at most 10 of them.
 */
export function ignoredParams(specs: readonly ParamSpec[], query: RawQuery, alsoRead: readonly string[] = []): string[] {
  const ignored: string[] = [];
  for (const name of query.keys()) {
    if (alsoRead.includes(name) || specs.some((spec) => spec.name === name || name.startsWith(`${spec.name}[`))) continue;
    ignored.push(encodeURIComponent(name).slice(0, 64));
    if (ignored.length === 10) break;
  }
  return ignored;
}

/** The parameters, or the 400 that refuses them, for the edge's parameters step. */
export function checkParams(specs: readonly ParamSpec[], query: RawQuery): Record<string, unknown> | ApiError {
  try {
    return parseParams(specs, query);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

/** A route's parameter check, made once at start from its declared parameters: the edge calls it with the request. */
export function paramsCheckOf(specs: readonly ParamSpec[]): (input: { query: RawQuery }) => Record<string, unknown> | ApiError {
  return (input) => checkParams(specs, input.query);
}

// Raw query-string handling for D6: every value of every name, so duplicates and nested forms can be refused.

export type RawQuery = Map<string, string[]>;

/** Parses `a=1&a=2&b[c]=3` into names -> values, decoding leniently (a bad escape stays as typed). */
export function parseRawQuery(url: string): RawQuery {
  const question = url.indexOf('?');
  const out: RawQuery = new Map();
  if (question < 0) return out;
  for (const pair of url.slice(question + 1).split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const name = decodeLenient(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decodeLenient(pair.slice(eq + 1));
    const list = out.get(name);
    if (list) list.push(value);
    else out.set(name, [value]);
  }
  return out;
}

function decodeLenient(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** The names under which a parameter was given in nested form, e.g. `type[x]` or `type[]` for `type`. */
export function nestedForms(query: RawQuery, name: string): string[] {
  return [...query.keys()].filter((key) => key.startsWith(`${name}[`));
}
