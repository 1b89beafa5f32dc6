/**
 * The dashboard's random tokens (session cookies, CSRF form tokens, links in emails) and their
 * comparison (src/dashboard-accounts/secrets.ts, re-exported for forms by src/dashboard/form-token.ts).
 */
import { createHash } from 'node:crypto';
import { newToken, sameSecret, tokenHash } from '../../../src/dashboard-accounts/secrets.js';
import { newFormToken, sameToken } from '../../../src/dashboard/form-token.js';

it('a new token is 256 random bits in URL-safe base64, never the same twice', () => {
  const tokens = Array.from({ length: 200 }, () => newToken());
  for (const token of tokens) {
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
  }
  expect(new Set(tokens).size).toBe(tokens.length);
  expect(newFormToken()).toMatch(/^[A-Za-z0-9_-]{43}$/);
});

it("a token's hash is its SHA-256 in hex: what the store keeps, never the token", () => {
  // FIPS 180-2's example: SHA-256("abc").
  expect(tokenHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  const token = newToken();
  expect(tokenHash(token)).toBe(createHash('sha256').update(token).digest('hex'));
  expect(tokenHash(token)).not.toContain(token);
});

describe('sameSecret (the form tokens are compared with it)', () => {
  it('is true for the same token only', () => {
    const token = newToken();
    expect(sameSecret(token, `${token}`)).toBe(true);
    expect(sameToken(token, token)).toBe(true);
    expect(sameSecret(token, newToken())).toBe(false);
  });

  it('is false, without throwing, for a prefix, a longer string, a change in the last character, or nothing sent', () => {
    const token = newToken();
    const last = token.at(-1) === 'A' ? 'B' : 'A';
    for (const sent of [token.slice(0, -1), `${token}x`, token.slice(0, -1) + last, '']) {
      expect(sameSecret(sent, token)).toBe(false);
      expect(sameSecret(token, sent)).toBe(false);
    }
  });

  it('compares bytes, not UTF-16 units: strings of one length but other byte lengths differ', () => {
    expect(sameSecret('é', 'e')).toBe(false);
    expect(sameSecret('ab', 'é')).toBe(false);
    expect(sameSecret('é', 'é')).toBe(true);
  });
});
