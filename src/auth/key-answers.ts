/** What the authenticator answers for a presented key (a principal or a refusal), and what it keeps of each. */
import type { Account } from '../domain/account.js';

export interface Principal {
  keyId: string;
  account: Account;
  /** The key is exempt from trusted-document enforcement: it may send any GraphQL operation. */
  anyOperation: boolean;
}

/**
 * Why a presented key is refused, for a 401 that says which case it is: keys are random enough
 * (238 bits) that naming a revoked or expired one tells a guesser nothing.
 */
export interface KeyRefusal {
  refused: 'malformed' | 'unknown' | 'revoked' | 'expired' | 'disabled';
  /** When an expired key expired (epoch ms). */
  expiresAt?: number;
}

export const MALFORMED: KeyRefusal = Object.freeze({ refused: 'malformed' });
export const UNKNOWN: KeyRefusal = Object.freeze({ refused: 'unknown' });
export const REVOKED: KeyRefusal = Object.freeze({ refused: 'revoked' });
export const DISABLED: KeyRefusal = Object.freeze({ refused: 'disabled' });
export const expiredAt = (expiresAt: number): KeyRefusal => ({ refused: 'expired', expiresAt });

/** A refused key, remembered for a moment: until when, and why. */
export interface Miss {
  until: number;
  refusal: KeyRefusal;
}

/**
 * A cached key: the principal the requests get, with when to re-read it. One object, not an entry
 * holding a principal: about 50 bytes less for each of up to 50 000 keys.
 */
export class CacheEntry implements Principal {
  readonly keyId: string;
  readonly account: Account;
  readonly anyOperation: boolean;
  /** Until when the entry is trusted without re-reading the key. */
  readonly freshUntil: number;
  /** When the key itself expires; null: never. */
  readonly keyExpiresAt: number | null;

  constructor(keyId: string, account: Account, anyOperation: boolean, freshUntil: number, keyExpiresAt: number | null) {
    this.keyId = keyId;
    this.account = account;
    this.anyOperation = anyOperation;
    this.freshUntil = freshUntil;
    this.keyExpiresAt = keyExpiresAt;
  }
}
