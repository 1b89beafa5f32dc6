/**
 * The account dashboard's sign-in rules, one module for every front (the pages, the CLI's
 * `accounts invite` and `reset-link`): sign-up by PORTAL_SIGNUP, sign-in with throttling and the
 * second factor, password changes and resets, email verification, two-factor setup. Answers that
 * could tell whether an email is registered are the same either way (docs/dashboard.md says how).
 */
import type { Logger } from 'pino';
import { z } from 'zod';
import { forbidden, invalid } from '../domain/errors.js';
import { DAY_MS, HOUR_MS } from '../domain/time.js';
import type { Store } from '../store/index.js';
import type { User } from '../store/users.js';
import { normalizeEmail } from '../store/users.js';
import type { ActivityKind } from '../store/activity.js';
import type { Mailer } from './mail.js';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.js';
import { newToken, tokenHash } from './secrets.js';
import type { ClientInfo, LiveSession, SessionService } from './sessions.js';
import type { SignInThrottle } from './sign-in-throttle.js';
import { newRecoveryCodes, newTotpSecret, recoveryCodeHash, totpCodeIsValid, totpEnrolment } from './two-factor.js';
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
const CODE_FAILED = 'that code is not right; try the current one from your app, or a recovery code';

const INVITE_TTL_MS = 7 * DAY_MS;
const RESET_TTL_MS = HOUR_MS;
const VERIFY_TTL_MS = 2 * DAY_MS;
const ISSUER = 'market-gateway';

const emailSchema = z.email().max(254);

export type SignInOutcome = { stage: 'signed_in' | 'second_factor'; token: string };

/** Links point at PORTAL_PUBLIC_URL (or the address the request came to). */
export const linkFor = (base: string, path: string, token: string) => `${base}/account/${path}?token=${encodeURIComponent(token)}`;

export function createDashboardAccounts(options: DashboardAccountsOptions) {
  const { store, sessions, throttle, mailer, logger, now } = options;

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

  return {
    signupMode: options.signup,
    mailEnabled: mailer !== undefined,

    /** The email of a pending invitation, for the sign-up form; undefined when it is not valid. */
    async invitation(token: string): Promise<string | undefined> {
      return (await store.oneTimeTokens.peek(tokenHash(token), 'invite', now()))?.email;
    },

    /**
     * Creates an account and its sign-in. The answer is the same whether or not the email was free
     * (nothing is created when it was not, after the same argon2 work); with mail, the owner of a
     * taken address is told someone tried.
     */
    async signUp(input: { email: string; password: string; invite?: string | undefined }, client: ClientInfo, base: string): Promise<void> {
      if (options.signup === 'closed') throw forbidden('sign-up is closed: ask the operator for an account');
      let email = checkEmail(input.email);
      let accountId: string | null = null;
      if (options.signup === 'invite' || input.invite) {
        const invitation = input.invite ? await store.oneTimeTokens.peek(tokenHash(input.invite), 'invite', now()) : undefined;
        if (!invitation) throw forbidden('sign-up needs an invitation link from the operator (accounts invite); this one is missing, used or expired');
        email = invitation.email;
        accountId = invitation.accountId;
      }
      checkNewPassword(input.password);
      const passwordHash = await hashPassword(input.password);
      const user = accountId
        ? await store.users.create({ accountId, email, passwordHash, now: now() })
        : await store.users.createWithNewAccount({ email, passwordHash, now: now() });
      if (!user) {
        await mail(
          email,
          'Someone tried to sign up with your address',
          `An account for this address already exists. Sign in at ${base}/account/sign-in, or reset your password there.`,
        );
        return;
      }
      if (input.invite) await store.oneTimeTokens.use(tokenHash(input.invite), now());
      await record(user.accountId, 'signed_up', `dashboard sign-in created for ${user.email}`, client);
      await sendVerification(user, base);
    },

    /** Email and password; then, with two-factor on, a session waiting for the code. */
    async signIn(input: { email: string; password: string }, client: ClientInfo): Promise<SignInOutcome> {
      const email = normalizeEmail(input.email);
      let user: User | undefined;
      await guard(
        email,
        client,
        async () => {
          user = await store.users.findByEmail(email);
          const ok = await verifyPassword(user?.passwordHash, input.password);
          if (!ok && user) await record(user.accountId, 'sign_in_failed', 'wrong password', client);
          return ok;
        },
        SIGN_IN_FAILED,
      );
      const signedIn = user!;
      await throttle.succeeded(email);
      // Only someone with the right password learns this.
      if ((await store.accounts.findAccountSummary(signedIn.accountId, now()))?.disabledAt != null) {
        throw forbidden('this account is disabled: ask the operator');
      }
      if (signedIn.totpEnabledAt !== null) {
        const started = await sessions.start(signedIn.id, 'second_factor', client);
        return { stage: 'second_factor', token: started.token };
      }
      const started = await sessions.start(signedIn.id, 'signed_in', client);
      await record(signedIn.accountId, 'sign_in', 'signed in', client);
      return { stage: 'signed_in', token: started.token };
    },

    /** The second step: a TOTP code or a recovery code; a new session id once it is right. */
    async secondFactor(session: LiveSession, code: string, client: ClientInfo): Promise<SignInOutcome> {
      const user = await userOf(session);
      let usedRecoveryCode = false;
      await guard(
        user.email,
        client,
        async () => {
          if (user.totpSecret && (await totpCodeIsValid(user.totpSecret, code))) return true;
          usedRecoveryCode = await store.users.spendRecoveryCode(user.id, recoveryCodeHash(code), now());
          if (!usedRecoveryCode) await record(user.accountId, 'sign_in_failed', 'wrong authentication code', client);
          return usedRecoveryCode;
        },
        CODE_FAILED,
      );
      await sessions.end(session.idHash);
      const started = await sessions.start(user.id, 'signed_in', client);
      if (usedRecoveryCode) await record(user.accountId, 'recovery_code_used', `${await store.users.unusedRecoveryCodes(user.id)} recovery codes left`, client);
      await record(user.accountId, 'sign_in', 'signed in with two-factor', client);
      return { stage: 'signed_in', token: started.token };
    },

    async signOut(session: LiveSession, client: ClientInfo): Promise<void> {
      await sessions.end(session.idHash);
      await record(session.accountId, 'signed_out', 'signed out', client);
    },

    /** Ends every session of the person (other browsers too) and starts a new one here. */
    async changePassword(session: LiveSession, input: { current: string; next: string }, client: ClientInfo): Promise<{ token: string }> {
      const user = await userOf(session);
      await guard(user.email, client, () => verifyPassword(user.passwordHash, input.current), 'the current password is wrong');
      checkNewPassword(input.next);
      await store.users.setPassword(user.id, await hashPassword(input.next), now());
      const ended = await sessions.endAllOf(user.id);
      const started = await sessions.start(user.id, 'signed_in', client);
      await record(user.accountId, 'password_changed', `password changed; ${ended} session(s) ended`, client);
      return { token: started.token };
    },

    /** With mail: a reset link to the address if it has an account. The same answer either way. */
    async requestReset(email: string, base: string): Promise<void> {
      const user = await store.users.findByEmail(email);
      if (!mailer || !user) return;
      const token = await issueToken('reset', user.email, user.accountId, RESET_TTL_MS);
      await mail(
        user.email,
        'Reset your market-gateway password',
        `Choose a new password at:\n\n${linkFor(base, 'reset', token)}\n\nThe link works for an hour, once. If you did not ask, ignore this mail.`,
      );
    },

    /** Whether a reset link may still be used (the form is shown only then). */
    async resetIsValid(token: string): Promise<boolean> {
      return (await store.oneTimeTokens.peek(tokenHash(token), 'reset', now())) !== undefined;
    },

    /** A new password from a reset link; every session of the account ends. */
    async resetPassword(token: string, password: string, client: ClientInfo): Promise<void> {
      const reset = await store.oneTimeTokens.peek(tokenHash(token), 'reset', now());
      const user = reset && (await store.users.findByEmail(reset.email));
      if (!user) throw invalid('this reset link is used, expired or unknown: ask for a new one');
      checkNewPassword(password);
      const passwordHash = await hashPassword(password);
      if (!(await store.oneTimeTokens.use(tokenHash(token), now()))) throw invalid('this reset link is used, expired or unknown: ask for a new one');
      await store.users.setPassword(user.id, passwordHash, now());
      const ended = await sessions.endAllOf(user.id);
      await record(user.accountId, 'password_reset', `password reset by link; ${ended} session(s) ended`, client);
    },

    async verifyEmail(token: string, client: ClientInfo): Promise<boolean> {
      const pending = await store.oneTimeTokens.peek(tokenHash(token), 'verify', now());
      const user = pending && (await store.users.findByEmail(pending.email));
      if (!user || !(await store.oneTimeTokens.use(tokenHash(token), now()))) return false;
      await store.users.markVerified(user.id, now());
      await record(user.accountId, 'email_verified', `${user.email} confirmed`, client);
      return true;
    },

    async resendVerification(session: LiveSession, base: string): Promise<void> {
      await sendVerification(await userOf(session), base);
    },

    /** `accounts invite <email> [--account <id>]`: a one-time sign-up link (7 days). */
    async invite(emailInput: string, accountId: string | undefined, base: string): Promise<string> {
      const email = checkEmail(emailInput);
      if (await store.users.findByEmail(email)) throw invalid(`${email} already signs in to an account`);
      if (accountId) {
        if (!(await store.accounts.findAccount(accountId))) throw invalid(`no account with id ${accountId}`);
        if (await store.users.findByAccount(accountId)) throw invalid(`account ${accountId} already has a dashboard sign-in`);
        await record(accountId, 'invited', `invitation sent to ${email}`);
      }
      return linkFor(base, 'sign-up', await issueToken('invite', email, accountId ?? null, INVITE_TTL_MS)).replace('?token=', '?invite=');
    },

    /** `accounts reset-link <email>`: a one-time password reset link (1 hour), for operators without SMTP. */
    async resetLink(emailInput: string, base: string): Promise<string> {
      const user = await store.users.findByEmail(emailInput);
      if (!user) throw invalid(`no dashboard sign-in with email ${normalizeEmail(emailInput)}`);
      return linkFor(base, 'reset', await issueToken('reset', user.email, user.accountId, RESET_TTL_MS));
    },

    /** Two-factor setup, step 1: a new secret (not active yet), as text and as a QR code. */
    async beginTwoFactor(session: LiveSession): Promise<{ secret: string; uri: string; qrSvg: string }> {
      const user = await userOf(session);
      if (user.totpEnabledAt !== null) throw invalid('two-factor sign-in is on already');
      const secret = await newTotpSecret();
      await store.users.setPendingTotp(user.id, secret);
      return { secret, ...(await totpEnrolment(ISSUER, user.email, secret)) };
    },

    /** Step 2: a code from the app turns it on; the recovery codes are returned once. */
    async confirmTwoFactor(session: LiveSession, code: string, client: ClientInfo): Promise<string[]> {
      const user = await userOf(session);
      if (!user.totpSecret || user.totpEnabledAt !== null) throw invalid('start the two-factor setup first');
      await guard(user.email, client, () => totpCodeIsValid(user.totpSecret!, code), CODE_FAILED);
      const codes = newRecoveryCodes();
      await store.users.enableTotp(user.id, codes.map(recoveryCodeHash), now());
      await record(user.accountId, 'two_factor_enabled', 'two-factor sign-in turned on', client);
      return codes;
    },

    async disableTwoFactor(session: LiveSession, password: string, client: ClientInfo): Promise<void> {
      const user = await userOf(session);
      await guard(user.email, client, () => verifyPassword(user.passwordHash, password), 'the current password is wrong');
      await store.users.disableTotp(user.id);
      await record(user.accountId, 'two_factor_disabled', 'two-factor sign-in turned off', client);
    },

    user: userOf,

    /** Ends one of the person's own sessions (not another person's: the id is checked against theirs). */
    async endSession(session: LiveSession, idHash: string, client: ClientInfo): Promise<void> {
      const own = await sessions.listLive(session.userId);
      if (!own.some((s) => s.idHash === idHash)) throw invalid('no such session');
      await sessions.end(idHash);
      await record(session.accountId, 'session_ended', `a session from ${own.find((s) => s.idHash === idHash)!.clientAddress} ended`, client);
    },

    async endOtherSessions(session: LiveSession, client: ClientInfo): Promise<void> {
      const ended = await sessions.endAllOf(session.userId, session.idHash);
      await record(session.accountId, 'session_ended', `${ended} other session(s) ended`, client);
    },
  };
}

export type DashboardAccounts = ReturnType<typeof createDashboardAccounts>;
