/**
 * What a /graphql request's wire form allows before anything is parsed: the media type its answer is
 * sent as (negotiated as Apollo does), and a POST's JSON body read within the size limit, refused in
 * words a person acts on when GraphQL over HTTP cannot read it.
 */
import type { IncomingMessage } from 'node:http';
import { LRUCache } from 'lru-cache';
import Negotiator from 'negotiator';
import getRawBody from 'raw-body';
import { ApiError } from '../domain/refusal.js';
import { jsonTextWithinDepth, tooDeepJson } from '../edge/json-depth.js';

const isJson = (contentType: string | undefined) => {
  const type = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
};

/** The two media types a single GraphQL result is sent as (GraphQL over HTTP), in Apollo's order of preference. */
export const RESULT_TYPES = ['application/json; charset=utf-8', 'application/graphql-response+json; charset=utf-8'];

export const NOT_ACCEPTABLE = "An 'accept' header was provided for this request which does not accept application/json or application/graphql-response+json";

/** Clients send one Accept header each, over and over: each negotiated once (a few hundred distinct at most are kept). */
const negotiated = new LRUCache<string, { type: string | undefined }>({ max: 256 });

/**
 * The media type the caller prefers among them, negotiated as Apollo does (no Accept: JSON);
 * undefined when it accepts neither, which Apollo answers with its 406.
 */
export function negotiatedType(accept: string | undefined): string | undefined {
  if (!accept) return RESULT_TYPES[0];
  let found = negotiated.get(accept);
  if (!found) {
    found = { type: new Negotiator({ headers: { accept } }).mediaType(RESULT_TYPES) };
    negotiated.set(accept, found);
  }
  return found.type;
}

/** A refusal of the request's form, before anything is parsed: GraphQL's shape, Apollo's code for the client's mistakes. */
const malformed = (status: 400 | 415, message: string) => new ApiError(status, message, {}, { code: 'BAD_USER_INPUT' });

const HOW = 'send a JSON object such as {"query": "{ __typename }"}';

/**
 * Reads a POST's JSON body within the size limit and refuses what GraphQL over HTTP cannot read, in
 * words a person acts on: no Content-Type or another than JSON (415, which also refuses what a
 * browser could send cross-site without a preflight, as Apollo's CSRF prevention did), an empty
 * body or one that is not JSON (400), JSON that is not one request object (400).
 */
export async function readBody(req: IncomingMessage, limit: number): Promise<unknown> {
  if (req.method !== 'POST') return undefined;
  const contentType = req.headers['content-type'];
  if (!isJson(contentType)) {
    const declared = (contentType ?? '').split(';', 1)[0]!.trim();
    throw malformed(
      415,
      declared
        ? `Content-Type ${declared} is not supported: POST /graphql takes application/json; ${HOW}`
        : `a POST to /graphql needs "Content-Type: application/json"; ${HOW}`,
    );
  }
  // Read as bytes and decoded here: raw-body's `encoding` goes through iconv-lite's stream
  // decoder, about 3 µs of a 60 µs request for a body that is UTF-8 by definition (RFC 8259).
  // The declared length (node's parser has checked it) lets a body over the limit be refused
  // before any of it is read; a chunked one is refused once the limit is passed. What raw-body
  // throws (too large, cut short) is the caller's to classify.
  let text = (await getRawBody(req, { limit, length: req.headers['content-length'] })).toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // a BOM, which JSON.parse refuses; iconv dropped it too
  if (text.trim() === '') throw malformed(400, `the request body is empty: ${HOW}`);
  // Deeper than any request of ours: refused before anything recurses over it (src/edge/json-depth.ts).
  if (!jsonTextWithinDepth(text)) throw malformed(400, tooDeepJson().message);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // Not the parser's message: it quotes the body, which may hold a secret.
    throw malformed(400, `the request body is not valid JSON: ${HOW}`);
  }
  if (Array.isArray(body)) throw malformed(400, 'batched requests (a JSON array) are not supported: send one request object per POST');
  if (typeof body !== 'object' || body === null) throw malformed(400, `the request body must be a JSON object: ${HOW}`);
  if (Object.keys(body).length === 0) throw malformed(400, `the request body has no "query": ${HOW}`);
  return body;
}
