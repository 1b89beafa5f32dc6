/**
 * API keys (D2): their format, hashing, and where a request carries one (D3). Keys
 * are shown once; only hashes are stored.
 */
import { hash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { randomBase62 } from '../domain/ids.js';
import type { Variant } from '../domain/variant.js';

const KEY_PREFIX = 'mgw_';
const KEY_PATTERN = /^mgw_[0-9A-Za-z]{32,128}$/;

export function generateApiKey(): string {
  return KEY_PREFIX + randomBase62(40);
}

export function isWellFormedApiKey(candidate: string): boolean {
  return KEY_PATTERN.test(candidate);
}

/** SHA-256 is right for 238-bit random secrets: no dictionary to slow down, and lookups stay fast. */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/**
 * The same SHA-256 as a 32-character binary (latin1) string: how the key caches name a key in
 * memory, computed on every request. As a Map key it is 48 bytes against the hex form's 80, for
 * each of up to 50 000 keys; the one-shot `hash` costs half of a `createHash` object's 0.6 µs.
 */
export const keyDigest = (key: string): string => hash('sha256', key, 'binary');
export const digestOfHash = (keyHash: string): string => Buffer.from(keyHash, 'hex').toString('latin1');
export const hashOfDigest = (digest: string): string => Buffer.from(digest, 'latin1').toString('hex');

/** What listings show instead of the key: enough to recognise it, useless to an attacker. */
export function displayPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 6);
}

/** Where a request carries its key (D3): the Bearer header on both variants; `?apikey=` on B only. */
const BEARER = /^Bearer[ ]+(\S+)\s*$/i;

/**
 * The presented key: undefined for none, `''` for an Authorization header that is not
 * `Bearer <key>` (a wrong key, not none: refused, never read as anonymous). The header wins over
 * `apikey` where both are given.
 */
export function presentedKey(authorization: string | undefined, apikeyParam: unknown, variant: Variant): string | undefined {
  if (authorization !== undefined && authorization !== '') {
    return BEARER.exec(authorization)?.[1] ?? '';
  }
  if (variant === 'B' && typeof apikeyParam === 'string' && apikeyParam !== '') return apikeyParam;
  return undefined;
}

/**
 * Where a request without a key put one that this listener does not read, for the 401 to say so:
 * an `X-API-Key` header (common elsewhere), or `?apikey=` on variant A (D3: B only).
 */
export function misplacedKey(headers: IncomingHttpHeaders, apikeyParam: unknown, variant: Variant): string | undefined {
  if (headers['x-api-key'] !== undefined) return 'the X-API-Key header is not read';
  if (variant === 'A' && typeof apikeyParam === 'string' && apikeyParam !== '') return '?apikey= is read on the prediction-markets listener only';
  return undefined;
}
