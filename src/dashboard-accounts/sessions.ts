/**
 * Dashboard sessions: a random id in the cookie, its hash in the store (every instance reads them,
 * a restart keeps them). A session ends on sign-out, after PORTAL_IDLE_MINUTES without a request,
 * after PORTAL_SESSION_HOURS whatever happens, when its account is disabled, and when the password
 * changes. Each sign-in gets a new id, so an id planted before it is worth nothing.
 */
import type { SessionRepository, SessionStage, SessionWithAccount } from '../store/sessions.js';
import { newToken, tokenHash } from './secrets.js';

export interface ClientInfo {
  address: string;
  userAgent: string;
}

/** last_seen_at is written at most this often: the idle timeout is in minutes, a write per request would be waste. */
const TOUCH_EVERY_MS = 30_000;

interface SessionServiceOptions {
  sessions: SessionRepository;
  idleMs: number;
  absoluteMs: number;
  now: () => number;
}

export type LiveSession = SessionWithAccount;

export function createSessionService(options: SessionServiceOptions) {
  const { sessions, now } = options;

  return {
    /** A new session: its cookie value (shown to the browser only) and what is stored. */
    async start(userId: string, stage: SessionStage, client: ClientInfo): Promise<{ token: string; idHash: string; csrfToken: string }> {
      const token = newToken();
      const at = now();
      const csrfToken = newToken();
      const idHash = tokenHash(token);
      await sessions.create({
        idHash,
        userId,
        stage,
        csrfToken,
        createdAt: at,
        lastSeenAt: at,
        expiresAt: at + options.absoluteMs,
        clientAddress: client.address,
        userAgent: client.userAgent.slice(0, 200),
      });
      return { token, idHash, csrfToken };
    },

    /** The live session of a cookie, or undefined (unknown, ended, idle too long, past its end, account disabled: ended now). */
    async resolve(token: string | undefined): Promise<LiveSession | undefined> {
      if (!token || token.length > 100) return undefined;
      const session = await sessions.find(tokenHash(token));
      if (!session) return undefined;
      const at = now();
      if (session.accountDisabled || at >= session.expiresAt || at - session.lastSeenAt >= options.idleMs) {
        await sessions.end(session.idHash, at);
        return undefined;
      }
      if (at - session.lastSeenAt >= TOUCH_EVERY_MS) await sessions.touch(session.idHash, at);
      return session;
    },

    end: (idHash: string) => sessions.end(idHash, now()),
    endAllOf: (userId: string, except?: string) => sessions.endAllOf(userId, now(), except),
    setStage: (idHash: string, stage: SessionStage) => sessions.setStage(idHash, stage),
    listLive: (userId: string) => sessions.listLive(userId, now()),
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
