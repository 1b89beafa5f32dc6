/**
 * TOTP two-factor sign-in (RFC 6238, with otplib) and its one-time recovery codes. otplib and
 * qrcode are loaded with the first use (about 2 MB of heap an API-only instance does without).
 */
import { randomBytes } from 'node:crypto';
import { tokenHash } from './secrets.js';

export const RECOVERY_CODES = 10;

export const newTotpSecret = async (): Promise<string> => (await import('otplib')).generateSecret();

/** The otpauth:// URI an authenticator app reads, as text and as an SVG QR code. */
export async function totpEnrolment(issuer: string, email: string, secret: string): Promise<{ uri: string; qrSvg: string }> {
  const [{ generateURI }, { default: QRCode }] = await Promise.all([import('otplib'), import('qrcode')]);
  const uri = generateURI({ issuer, label: email, secret });
  return { uri, qrSvg: await QRCode.toString(uri, { type: 'svg', margin: 1 }) };
}

/** A six-digit code of this 30-second step or the one before or after (clocks drift). */
export async function totpCodeIsValid(secret: string, code: string): Promise<boolean> {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return false;
  const { verify } = await import('otplib');
  return (await verify({ secret, token, epochTolerance: 30 })).valid;
}

/** `abcde-fghij`: ten characters of base32, easy to type. */
export function newRecoveryCodes(count = RECOVERY_CODES): string[] {
  return Array.from({ length: count }, () => {
    const text = randomBytes(10)
      .toString('base64url')
      .replace(/[^a-zA-Z2-7]/g, '')
      .toLowerCase()
      .padEnd(10, 'x')
      .slice(0, 10);
    return `${text.slice(0, 5)}-${text.slice(5)}`;
  });
}

/** Recovery codes are kept hashed, compared without case or the dash. */
export const recoveryCodeHash = (code: string): string =>
  tokenHash(
    code
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9]/g, ''),
  );
