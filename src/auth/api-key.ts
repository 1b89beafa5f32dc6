/** API key format, hashing and comparison (D2). Keys are shown once; only hashes are stored. */
import { createHash, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from '../domain/ids.js';

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
  return createHash('sha256').update(key).digest('hex');
}

/** Constant-time comparison of two hex digests. */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** What listings show instead of the key: enough to recognise it, useless to an attacker. */
export function displayPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 6);
}
