/**
 * What the operation catalogue keeps of the texts it has seen, each cache bounded by count and by
 * size: the prepared operations (or why a text cannot run), the texts APQ registered by their
 * hash, and the documents Apollo asks for by their text's hash (its `documentStore`).
 */
import type { DocumentNode } from 'graphql';
import { LRUCache } from 'lru-cache';
import { ApiError } from '../../domain/refusal.js';
import { type PreparedOperation, type PrepareRules, prepareOperation } from './prepare.js';

/** Apollo's `KeyValueCache<DocumentNode>`, as its `documentStore` option takes it. */
export interface DocumentStore {
  get(key: string): Promise<DocumentNode | undefined>;
  set(key: string, value: DocumentNode): Promise<void>;
  delete(key: string): Promise<boolean>;
}

export function createKeptOperations(rules: PrepareRules, maxEntries: number, maxSize: number) {
  // Bounded by size too: a thousand 100 KB texts must not pin 100 MB (a compiled query is a few KB).
  const prepared = new LRUCache<string, PreparedOperation | ApiError>({ max: maxEntries, maxSize, sizeCalculation: (_v, key) => key.length + 2_000 });
  /** APQ: texts registered by their hash, as Apollo's own cache keeps them (bounded: unknown hashes add nothing). */
  const registered = new LRUCache<string, string>({ max: maxEntries, maxSize, sizeCalculation: (text) => text.length + 100 });
  /** Documents by their text's hash, for Apollo, which asks for them that way (each pins its text: bounded by size too). */
  const documents = new LRUCache<string, DocumentNode>({
    max: maxEntries,
    maxSize,
    sizeCalculation: (document) => (document.loc?.source.body.length ?? 0) + 2_000,
  });

  const documentStore: DocumentStore = {
    // Apollo asks by `<schema hash>:<query hash>`; the catalogue prepared (and validated) that text just before.
    get: async (key) => documents.get(key.slice(key.lastIndexOf(':') + 1)),
    async set() {},
    delete: async () => true,
  };

  return {
    /** A text's operation, prepared on first sight and kept (a refusal too). */
    prepare(text: string, operationName: string | undefined): PreparedOperation | ApiError {
      const key = JSON.stringify([operationName ?? null, text]); // unambiguous, whatever the text holds
      let entry = prepared.get(key);
      if (entry === undefined) {
        entry = prepareOperation(rules, text, operationName);
        prepared.set(key, entry);
      }
      // Only Apollo asks for documents, and only for what it runs: mutations and introspection.
      if (!(entry instanceof ApiError) && !entry.runsCompiled) documents.set(entry.id, entry.document);
      return entry;
    },

    /** The text APQ registered under this hash, if it is still kept. */
    registeredText: (id: string): string | undefined => registered.get(id),

    /** APQ's registration: a text that prepared, kept under its hash. */
    register(id: string, text: string): void {
      registered.set(id, text);
    },

    documentStore,
  };
}
