/**
 * Trusted documents: the manifest, replaced whole by each load, and its version, which
 * instances poll (one primary-key read) to learn that another process loaded a new one.
 */
import type { Kysely } from 'kysely';
import type { OperationType, TrustedDocument } from '../domain/trusted-documents.js';
import type { Database, TrustedDocumentsTable } from './tables.js';

/** What a listing shows of a document: everything but its text. */
export interface TrustedDocumentListing {
  id: string;
  name: string | null;
  type: OperationType | null;
  loadedAt: number;
}

export interface ManifestLoad {
  /** Documents in the manifest now. */
  count: number;
  /** Documents of the manifest it replaced. */
  replaced: number;
  version: number;
}

/** Rows per INSERT: five parameters each, well below SQLite's and PostgreSQL's limits. */
const ROWS_PER_INSERT = 500;

const toRow = (d: TrustedDocument, now: number): TrustedDocumentsTable => ({
  id: d.id,
  body: d.body,
  name: d.name ?? null,
  type: d.type ?? null,
  loaded_at: now,
});

export function createTrustedDocumentRepository(db: Kysely<Database>) {
  const versionQuery = db.selectFrom('trusted_documents_meta').select('version').where('id', '=', 1).compile();

  return {
    /** Replaces the manifest with `documents` (distinct ids) in one transaction, and bumps its version. */
    async replaceAll(documents: readonly TrustedDocument[], now: number): Promise<ManifestLoad> {
      return db.transaction().execute(async (trx) => {
        // The meta row first: its lock makes concurrent loads wait for each other (PostgreSQL), so
        // each replaces the other whole instead of the two colliding on the same ids.
        const { version } = await trx
          .updateTable('trusted_documents_meta')
          .set((eb) => ({ version: eb('version', '+', 1), loaded_at: now }))
          .where('id', '=', 1)
          .returning('version')
          .executeTakeFirstOrThrow();
        const deleted = await trx.deleteFrom('trusted_documents').executeTakeFirst();
        for (let i = 0; i < documents.length; i += ROWS_PER_INSERT) {
          await trx
            .insertInto('trusted_documents')
            .values(documents.slice(i, i + ROWS_PER_INSERT).map((d) => toRow(d, now)))
            .execute();
        }
        return { count: documents.length, replaced: Number(deleted.numDeletedRows), version };
      });
    },

    /** The manifest for people: by name (unnamed first), then id; without the texts. */
    async list(): Promise<TrustedDocumentListing[]> {
      const rows = await db
        .selectFrom('trusted_documents')
        .select(['id', 'name', 'type', 'loaded_at'])
        .orderBy((eb) => eb.fn.coalesce('name', eb.val('')))
        .orderBy('id')
        .execute();
      return rows.map((r) => ({ id: r.id, name: r.name, type: r.type as OperationType | null, loadedAt: r.loaded_at }));
    },

    /** Every document with its text, by id: what an instance trusts. */
    async all(): Promise<TrustedDocument[]> {
      const rows = await db.selectFrom('trusted_documents').select(['id', 'body', 'name', 'type']).orderBy('id').execute();
      return rows.map((r) => ({ id: r.id, body: r.body, ...(r.name ? { name: r.name } : {}), ...(r.type ? { type: r.type as OperationType } : {}) }));
    },

    /** Bumped by every load (0 before the first): polled, so compiled once. */
    async version(): Promise<number> {
      const result = await db.executeQuery<{ version: number }>(versionQuery);
      return result.rows[0]?.version ?? 0;
    },
  };
}

export type TrustedDocumentRepository = ReturnType<typeof createTrustedDocumentRepository>;
