/** An API key's row: written (only the hash of the key is stored), read, and counted live. */
import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import { newId } from '../domain/ids.js';
import type { ApiKeysTable, Database } from './tables.js';

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  displayPrefix: string;
  name: string;
  createdAt: number;
  revokedAt: number | null;
  /** From then on the key is refused; null: it does not expire. */
  expiresAt: number | null;
  /** Exempt from trusted-document enforcement: the key may send any GraphQL operation. */
  anyOperation: boolean;
}

export function toKeyRecord(row: Selectable<ApiKeysTable>): ApiKeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    displayPrefix: row.display_prefix,
    name: row.name,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    expiresAt: row.expires_at,
    anyOperation: row.any_operation === 1,
  };
}

export interface NewKey {
  name: string;
  keyHash: string;
  displayPrefix: string;
  now: number;
  /** Exempt the key from trusted-document enforcement (false by default). */
  anyOperation?: boolean;
  /** When the key stops working; none by default. */
  expiresAt?: number | null;
}

/** Keys that work at `now`: neither revoked nor expired. */
export const liveAt = (now: number) => (eb: ExpressionBuilder<Database, 'api_keys'>) =>
  eb.and([eb('api_keys.revoked_at', 'is', null), eb.or([eb('api_keys.expires_at', 'is', null), eb('api_keys.expires_at', '>', now)])]);

export async function countLive(db: Kysely<Database>, accountId: string, now: number): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('api_keys.account_id', '=', accountId)
    .where(liveAt(now))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Writes a new key of `accountId`; only the hash of the key is stored. */
export async function insertKey(db: Kysely<Database>, accountId: string, input: NewKey): Promise<ApiKeyRecord> {
  const key: ApiKeyRecord = {
    id: newId('key'),
    accountId,
    displayPrefix: input.displayPrefix,
    name: input.name,
    createdAt: input.now,
    revokedAt: null,
    expiresAt: input.expiresAt ?? null,
    anyOperation: input.anyOperation ?? false,
  };
  await db
    .insertInto('api_keys')
    .values({
      id: key.id,
      account_id: accountId,
      display_prefix: key.displayPrefix,
      key_hash: input.keyHash,
      name: key.name,
      created_at: key.createdAt,
      revoked_at: null,
      any_operation: key.anyOperation ? 1 : 0,
      expires_at: key.expiresAt,
    })
    .execute();
  return key;
}
