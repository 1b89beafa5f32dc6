/**
 * Dashboard sessions, server-side: the cookie holds a random id, the store its hash, so a copy of
 * the database does not sign anyone in. Every instance reads them; ending one is a write, seen by
 * all at their next read.
 */
import type { Kysely, Selectable } from 'kysely';
import type { Database, SessionsTable } from './tables.js';
import type { Account } from '../domain/account.js';
import { toAccount } from './account-rows.js';

export type SessionStage = 'signed_in' | 'second_factor';

export interface Session {
  idHash: string;
  userId: string;
  stage: SessionStage;
  csrfToken: string;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  endedAt: number | null;
  clientAddress: string;
  userAgent: string;
}

/** A live session with what each request needs of its person and account. */
export interface SessionWithAccount extends Session {
  accountId: string;
  /** The session's account as the same read found it: the dashboard's pages act for it without reading it again. */
  account: Account;
  email: string;
  accountDisabled: boolean;
}

const toSession = (row: Selectable<SessionsTable>): Session => ({
  idHash: row.id_hash,
  userId: row.user_id,
  stage: row.stage as SessionStage,
  csrfToken: row.csrf_token,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
  expiresAt: row.expires_at,
  endedAt: row.ended_at,
  clientAddress: row.client_address,
  userAgent: row.user_agent,
});

export function createSessionRepository(db: Kysely<Database>) {
  return {
    async create(session: Omit<Session, 'endedAt'>): Promise<void> {
      await db
        .insertInto('sessions')
        .values({
          id_hash: session.idHash,
          user_id: session.userId,
          stage: session.stage,
          csrf_token: session.csrfToken,
          created_at: session.createdAt,
          last_seen_at: session.lastSeenAt,
          expires_at: session.expiresAt,
          ended_at: null,
          client_address: session.clientAddress,
          user_agent: session.userAgent,
        })
        .execute();
    },

    /** The session of a cookie with its account, unless it ended; expiry is the caller's to judge. */
    async find(idHash: string): Promise<SessionWithAccount | undefined> {
      const row = await db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .innerJoin('accounts', 'accounts.id', 'users.account_id')
        .selectAll('sessions')
        .select(['users.account_id', 'users.email', 'accounts.disabled_at', 'accounts.name', 'accounts.market_data_plan', 'accounts.prediction_plan'])
        .where('sessions.id_hash', '=', idHash)
        .where('sessions.ended_at', 'is', null)
        .executeTakeFirst();
      if (!row) return undefined;
      const account = toAccount({ id: row.account_id, name: row.name, market_data_plan: row.market_data_plan, prediction_plan: row.prediction_plan });
      return { ...toSession(row), accountId: row.account_id, account, email: row.email, accountDisabled: row.disabled_at !== null };
    },

    async touch(idHash: string, now: number): Promise<void> {
      await db.updateTable('sessions').set({ last_seen_at: now }).where('id_hash', '=', idHash).execute();
    },

    async setStage(idHash: string, stage: SessionStage): Promise<void> {
      await db.updateTable('sessions').set({ stage }).where('id_hash', '=', idHash).execute();
    },

    async end(idHash: string, now: number): Promise<void> {
      await db.updateTable('sessions').set({ ended_at: now }).where('id_hash', '=', idHash).where('ended_at', 'is', null).execute();
    },

    /** Ends every live session of a person but `except` (the one asking); returns how many ended. */
    async endAllOf(userId: string, now: number, except?: string): Promise<number> {
      let query = db.updateTable('sessions').set({ ended_at: now }).where('user_id', '=', userId).where('ended_at', 'is', null);
      if (except) query = query.where('id_hash', '!=', except);
      return Number((await query.executeTakeFirst()).numUpdatedRows);
    },

    /** Live sessions of a person, newest first. */
    async listLive(userId: string, now: number): Promise<Session[]> {
      const rows = await db
        .selectFrom('sessions')
        .selectAll()
        .where('user_id', '=', userId)
        .where('ended_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('last_seen_at', 'desc')
        .execute();
      return rows.map(toSession);
    },

    /** Deletes sessions that ended or expired before `before` (housekeeping). */
    async pruneBefore(before: number): Promise<void> {
      await db
        .deleteFrom('sessions')
        .where((eb) => eb.or([eb('ended_at', '<', before), eb('expires_at', '<', before)]))
        .execute();
    },
  };
}

export type SessionRepository = ReturnType<typeof createSessionRepository>;
