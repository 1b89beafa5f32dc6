/**
 * API keys (src/auth/api-key.ts): what a well-formed key is, how it is hashed and named in memory,
 * and where a request carries one (D3): the Bearer header on both listeners, `?apikey=` on B only.
 */
import {
  digestOfHash,
  displayPrefix,
  generateApiKey,
  hashApiKey,
  hashOfDigest,
  isWellFormedApiKey,
  keyDigest,
  misplacedKey,
  presentedKey,
} from '../../../src/auth/api-key.js';

const alnum = (n: number) => 'aZ0'.repeat(Math.ceil(n / 3)).slice(0, n);

describe('the form of a key', () => {
  it('a generated key is "mgw_" and 40 letters and digits, well formed, never the same twice', () => {
    const keys = Array.from({ length: 100 }, () => generateApiKey());
    for (const key of keys) {
      expect(key).toMatch(/^mgw_[0-9A-Za-z]{40}$/);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('is "mgw_" and 32 to 128 letters and digits, nothing before or after', () => {
    expect(isWellFormedApiKey(`mgw_${alnum(32)}`)).toBe(true);
    expect(isWellFormedApiKey(`mgw_${alnum(128)}`)).toBe(true);
    for (const bad of [
      `mgw_${alnum(31)}`,
      `mgw_${alnum(129)}`,
      `xmgw_${alnum(40)}`,
      `MGW_${alnum(40)}`,
      `mgw_${alnum(40)} `,
      `mgw_${alnum(40)}\n`,
      `mgw_${alnum(39)}-`,
      `mgw_${alnum(39)}é`,
      `mgw-${alnum(40)}`,
      '',
    ]) {
      expect(isWellFormedApiKey(bad)).toBe(false);
    }
  });

  it('is listed by its first ten characters: the prefix and six more', () => {
    expect(displayPrefix('mgw_abcdefghijklmnop')).toBe('mgw_abcdef');
  });
});

describe('hashes and digests', () => {
  it('the stored hash is the SHA-256 of the key, in hex', () => {
    // FIPS 180-2's example: SHA-256("abc").
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it("the in-memory digest is the same hash as 32 bytes, and converts both ways with the store's hex", () => {
    const key = generateApiKey();
    const digest = keyDigest(key);
    expect(digest).toHaveLength(32);
    expect(Buffer.from(digest, 'latin1').toString('hex')).toBe(hashApiKey(key));
    expect(digestOfHash(hashApiKey(key))).toBe(digest);
    expect(hashOfDigest(digest)).toBe(hashApiKey(key));
    expect(keyDigest(generateApiKey())).not.toBe(digest);
  });
});

describe('presentedKey: where a request carries its key', () => {
  const key = `mgw_${alnum(40)}`;

  it('reads "Bearer <key>", the scheme in any case, any number of spaces, trailing blanks', () => {
    for (const header of [`Bearer ${key}`, `bearer ${key}`, `BEARER   ${key}`, `Bearer ${key}  `, `Bearer ${key}\t`]) {
      expect(presentedKey(header, undefined, 'A')).toBe(key);
    }
  });

  it("an Authorization header that is not one Bearer key is a wrong key (''), never no key", () => {
    for (const header of [`Basic ${key}`, 'Bearer', 'Bearer ', `Bearer\t${key}`, `Bearer ${key} extra`, `XBearer ${key}`, key]) {
      expect(presentedKey(header, undefined, 'B')).toBe('');
    }
  });

  it('on B, ?apikey= is read when there is no header; the header wins where both are given', () => {
    expect(presentedKey(undefined, key, 'B')).toBe(key);
    expect(presentedKey('', key, 'B')).toBe(key);
    expect(presentedKey(`Bearer ${key}`, 'mgw_other', 'B')).toBe(key);
    expect(presentedKey('Basic x', key, 'B')).toBe('');
  });

  it('?apikey= is not read on A, nor when empty or given twice (an array)', () => {
    expect(presentedKey(undefined, key, 'A')).toBeUndefined();
    expect(presentedKey(undefined, '', 'B')).toBeUndefined();
    expect(presentedKey(undefined, [key, key], 'B')).toBeUndefined();
    expect(presentedKey(undefined, undefined, 'B')).toBeUndefined();
  });
});

describe('misplacedKey: what a 401 tells a request that put its key where it is not read', () => {
  it('names an X-API-Key header, on either listener', () => {
    expect(misplacedKey({ 'x-api-key': 'mgw_x' }, undefined, 'B')).toBe('the X-API-Key header is not read');
    expect(misplacedKey({ 'x-api-key': '' }, undefined, 'A')).toBe('the X-API-Key header is not read');
  });

  it('names ?apikey= on A only, where it is not empty', () => {
    expect(misplacedKey({}, 'mgw_x', 'A')).toBe('?apikey= is read on the prediction-markets listener only');
    expect(misplacedKey({}, 'mgw_x', 'B')).toBeUndefined();
    expect(misplacedKey({}, '', 'A')).toBeUndefined();
    expect(misplacedKey({}, ['mgw_x'], 'A')).toBeUndefined();
    expect(misplacedKey({}, undefined, 'A')).toBeUndefined();
  });
});
