/**
 * Passwords: 12 to 256 characters, hashed with argon2id (@node-rs/argon2's defaults: 19 MiB,
 * two passes, OWASP's minimum). An unknown email is checked against a hash of nothing, so both
 * answers cost the same argon2 work and take about the same time.
 */
import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

export const PASSWORD_LENGTH = { min: 12, max: 256 } as const;

/** Why a new password is refused, or undefined when it may be used. */
export function passwordProblem(password: string): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_LENGTH.min) return `a password has at least ${PASSWORD_LENGTH.min} characters`;
  if (length > PASSWORD_LENGTH.max) return `a password has at most ${PASSWORD_LENGTH.max} characters`;
  return undefined;
}

export const hashPassword = (password: string): Promise<string> => hash(password);

let decoy: Promise<string> | undefined;

/** True when `password` matches `passwordHash`; with no hash (unknown email), the same work and false. */
export async function verifyPassword(passwordHash: string | undefined, password: string): Promise<boolean> {
  if (passwordHash === undefined) {
    decoy ??= hash(randomBytes(16).toString('hex'));
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
