/**
 * Seeded PRNG for the demo feed (sfc32 seeded by a string hash), hand-written so the output is
 * reproducible without a dependency. Each market/interval gets its own named stream, so adding a market
 * or reordering the catalogue never changes the numbers of the others.
 */

// Aliased once: inside Node vm contexts (Jest) every lookup of the global `Math` is slow, and this is hot code.
const { cos, imul, log, sin, sqrt, PI } = Math;

export interface Random {
  /** Uniform in [0, 1). */
  uniform(): number;
  /** Standard normal (mean 0, variance 1). */
  normal(): number;
}

/** FNV-1a over the text, salted, then the murmur3 finaliser to spread the bits. */
function hash32(text: string, salt: number): number {
  let h = (0x811c9dc5 ^ imul(salt, 0x9e3779b9)) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A generator for the stream `stream` under `seed`; the same pair always yields the same sequence. */
export function createRandom(seed: number, stream: string): Random {
  // The seed goes in as text so that any finite number (large, fractional, negative) counts in full.
  const key = `${seed}|${stream}`;
  let a = hash32(key, 1);
  let b = hash32(key, 2);
  let c = hash32(key, 3);
  let d = hash32(key, 4);

  function next(): number {
    const t0 = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    const t = (t0 + d) | 0;
    c = (c + t) | 0;
    return t >>> 0;
  }
  // Discard the first outputs: sfc32's early values still correlate with the seed words.
  for (let i = 0; i < 15; i++) next();

  let spare: number | undefined;
  return {
    uniform: () => next() / 4294967296,
    normal() {
      if (spare !== undefined) {
        const z = spare;
        spare = undefined;
        return z;
      }
      // Box-Muller; 1 - u keeps the logarithm's argument in (0, 1].
      const u = 1 - next() / 4294967296;
      const v = next() / 4294967296;
      const r = sqrt(-2 * log(u));
      spare = r * sin(2 * PI * v);
      return r * cos(2 * PI * v);
    },
  };
}
