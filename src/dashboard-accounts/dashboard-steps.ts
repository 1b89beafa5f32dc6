/**
 * The steps the dashboard's sign-in rules are made of: the activity record, the checks of an email
 * and a new password, mail (never failing the answer), one-time tokens, the throttle's guard, the
 * user of a session. Each rule module (sign-up, sign-in, passwords, two-factor) takes them.
 */
import type { Logger } from 'pino';
import { z } from 'zod';
import { forbidden, invalid } from '../domain/errors.js';
import { DAY_MS, HOUR_MS } from '../domain/time.js';
import type { ActivityKind } from '../store/activity.js';
import type { Store } from '../store/index.js';
import type { User } from '../store/users.js';
import { normalizeEmail } from '../store/users.js';
import type { Mailer } from './mail.js';
import { passwordProblem } from './passwords.js';
import { newToken, tokenHash } from './secrets.js';
import type { ClientInfo, LiveSession, SessionService } from './sessions.js';
import type { SignInThrottle } from './sign-in-throttle.js';
import { ApiError } from '../domain/refusal.js';

export type SignupMode = 'open' | 'invite' | 'closed';

export interface DashboardAccountsOptions {
  store: Store;
  sessions: SessionService;
  throttle: SignInThrottle;
  /** Set with SMTP_URL: resets and verification by mail. */
  mailer: Mailer | undefined;
  signup: SignupMode;
  logger: Logger;
  now: () => number;
}

/** Too many failed attempts: wait this many seconds (even the right password is refused meanwhile). */
export const tooManyAttempts = (retryAfterSeconds: number) =>
  new ApiError(429, `too many failed sign-ins: try again in ${Math.ceil(retryAfterSeconds / 60)} minute(s)`, { 'Retry-After': String(retryAfterSeconds) });

/** The one answer to a failed sign-in, whether the email is unknown or the password wrong. */
export const SIGN_IN_FAILED = 'the email or the password is wrong';
export const CODE_FAILED = 'that code is not right; try the current one from your app, or a recovery code';

export const INVITE_TTL_MS = 7 * DAY_MS;
export const RESET_TTL_MS = HOUR_MS;
const VERIFY_TTL_MS = 2 * DAY_MS;
export const ISSUER = 'market-gateway';

const emailSchema = z.email().max(254);

export type SignInOutcome = { stage: 'signed_in' | 'second_factor'; token: string };

/** Links point at PORTAL_PUBLIC_URL (or the address the request came to). */
export const linkFor = (base: string, path: string, token: string) => `${base}/account/${path}?token=${encodeURIComponent(token)}`;

export type DashboardSteps = ReturnType<typeof createDashboardSteps>;

export function createDashboardSteps(options: DashboardAccountsOptions) {
  const { store, throttle, mailer, logger, now } = options;

  const record = (accountId: string, kind: ActivityKind, detail: string, client?: ClientInfo) =>
    store.activity.record({ accountId, at: now(), kind, detail, clientAddress: client?.address ?? null });

  function checkEmail(email: string): string {
    const parsed = emailSchema.safeParse(normalizeEmail(email));
    if (!parsed.success) throw invalid('enter an email address, like name@example.com');
    return parsed.data;
  }

  function checkNewPassword(password: string): void {
    const problem = passwordProblem(password);
    if (problem) throw invalid(problem);
  }

  async function mail(to: string, subject: string, text: string): Promise<void> {
    // A mail that fails is logged, never shown: the answer must not depend on it.
    await mailer?.send({ to, subject, text }).catch((error: unknown) => logger.warn({ err: error }, 'dashboard mail not sent'));
  }

  async function issueToken(kind: 'invite' | 'reset' | 'verify', email: string, accountId: string | null, ttlMs: number): Promise<string> {
    const token = newToken();
    await store.oneTimeTokens.issue({ tokenHash: tokenHash(token), kind, email, accountId, expiresAt: now() + ttlMs, now: now() });
    return token;
  }

  async function sendVerification(user: User, base: string): Promise<void> {
    if (!mailer || user.emailVerifiedAt !== null) return;
    const token = await issueToken('verify', user.email, user.accountId, VERIFY_TTL_MS);
    await mail(
      user.email,
      'Confirm your email for market-gateway',
      `Confirm this address by opening:\n\n${linkFor(base, 'verify', token)}\n\nThe link works for two days.`,
    );
  }

  /** Throttled like a sign-in: a wrong current password or code counts as a failed attempt. */
  async function guard(email: string, client: ClientInfo, check: () => Promise<boolean>, failure: string): Promise<void> {
    const wait = await throttle.waitSeconds(email, client.address);
    if (wait > 0) throw tooManyAttempts(wait);
    if (await check()) return;
    await throttle.failed(email, client.address);
    throw invalid(failure);
  }

  async function userOf(session: LiveSession): Promise<User> {
    const user = await store.users.findById(session.userId);
    if (!user) throw forbidden('this session has no account');
    return user;
  }

  return { record, checkEmail, checkNewPassword, mail, issueToken, sendVerification, guard, userOf };
}
