/** Where a request carries its key (D3): the Bearer header on both variants; `?apikey=` on B only. */

import type { Variant } from '../domain/variant.js';

const BEARER = /^Bearer[ ]+(\S+)\s*$/i;

/**
 * The presented key, or undefined when none is usable. A malformed Authorization header counts
 * as no key at all; the header wins over `apikey` where both are given.
 */
export function presentedKey(authorization: string | undefined, apikeyParam: unknown, variant: Variant): string | undefined {
  if (authorization !== undefined && authorization !== '') {
    return BEARER.exec(authorization)?.[1];
  }
  if (variant === 'B' && typeof apikeyParam === 'string' && apikeyParam !== '') return apikeyParam;
  return undefined;
}
