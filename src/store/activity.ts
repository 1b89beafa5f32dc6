/** Each account's activity log: sign-ins and failures, keys, password, two-factor and webhook changes. */
import type { Kysely } from 'kysely';
import type { Database } from './tables.js';

export const ACTIVITY_KINDS = [
  'signed_up',
  'sign_in',
  'sign_in_failed',
  'signed_out',
  'password_changed',
  'password_reset',
  'email_verified',
  'two_factor_enabled',
  'two_factor_disabled',
  'recovery_code_used',
  'session_ended',
  'key_created',
  'key_rotated',
  'key_revoked',
  'webhook_added',
  'webhook_changed',
  'webhook_deleted',
  'plan_changed',
  'account_disabled',
  'account_enabled',
  'invited',
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

export interface ActivityEntry {
  accountId: string;
  at: number;
  kind: ActivityKind;
  /** What a person reads: `key key_... "ci" created`. Never a secret. */
  detail: string;
  /** The client's address when a person did it in the dashboard; null from the CLI. */
  clientAddress: string | null;
}

/** Writes one entry, on `db` or inside a transaction (the change it records, in the same one). */
export async function insertActivity(db: Kysely<Database>, entry: ActivityEntry): Promise<void> {
  await db
    .insertInto('account_activity')
    .values({ account_id: entry.accountId, at: entry.at, kind: entry.kind, detail: entry.detail, client_address: entry.clientAddress })
    .execute();
}

export function createActivityRepository(db: Kysely<Database>) {
  return {
    record: (entry: ActivityEntry): Promise<void> => insertActivity(db, entry),

    /** The newest `limit` entries of an account, newest first. */
    async list(accountId: string, limit = 100): Promise<ActivityEntry[]> {
      const rows = await db
        .selectFrom('account_activity')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ accountId: r.account_id, at: r.at, kind: r.kind as ActivityKind, detail: r.detail, clientAddress: r.client_address }));
    },
  };
}

export type ActivityRepository = ReturnType<typeof createActivityRepository>;
