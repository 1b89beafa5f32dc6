/** Random tokens for cookies and links, and the one-way hash under which the store keeps them. */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 256 random bits, URL-safe. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** SHA-256, hex: tokens are random and long, so a fast hash is enough (no password is hashed here). */
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Compares two strings in constant time (CSRF tokens). */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
