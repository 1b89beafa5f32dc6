/**
 * Trusted documents (what Apollo Router, Hive and Grafbase call them): the operations the
 * dashboards were built with, loaded into the store by `documents load`. Every instance keeps the
 * manifest in memory and polls the store's version of it, so a manifest loaded once is followed
 * everywhere within a poll. The policy (`TRUSTED_DOCUMENTS`): `off`, `log` (an unknown operation
 * runs, counted and logged with its hash) or `enforce` (refused, unless the key is exempt).
 */
import type { Logger } from 'pino';
import { LRUCache } from 'lru-cache';

export const TRUSTED_DOCUMENTS_MODES = ['off', 'log', 'enforce'] as const;
export type TrustedDocumentsMode = (typeof TRUSTED_DOCUMENTS_MODES)[number];

/** What the store keeps: the manifest's documents, and a version that changes with every load. */
export interface TrustedDocumentSource {
  all(): Promise<readonly { id: string; body: string }[]>;
  version(): Promise<number>;
}

export interface TrustedDocuments {
  readonly mode: TrustedDocumentsMode;
  has(id: string): boolean;
  /** The text of a trusted document, for a request that names it by id alone. */
  body(id: string): string | undefined;
  /** An operation outside the manifest ran (`log`, or an exempt key in `enforce`): counted, logged once per hash a while. */
  onUntrusted(id: string): void;
  /** Loads the manifest, then follows it; resolves once the first load is done. */
  start(): Promise<void>;
  stop(): void;
  /** Reads the store's version now and reloads when it changed (the poll, and tests). */
  refresh(): Promise<void>;
}

interface Options {
  mode: TrustedDocumentsMode;
  source: TrustedDocumentSource;
  pollMs: number;
  logger: Logger;
  /** Counts operations outside the manifest (/metrics). */
  untrusted?: { inc(): void };
}

export function createTrustedDocuments(options: Options): TrustedDocuments {
  let bodies = new Map<string, string>();
  let version: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  // A hash is logged once in ten minutes: a client looping on an unknown operation does not flood the log.
  const logged = new LRUCache<string, true>({ max: 1_000, ttl: 600_000 });

  async function refresh(): Promise<void> {
    const current = await options.source.version();
    if (current === version) return;
    const documents = await options.source.all();
    bodies = new Map(documents.map((d) => [d.id, d.body]));
    version = current;
    options.logger.info({ documents: bodies.size, mode: options.mode }, 'trusted documents loaded');
  }

  return {
    mode: options.mode,
    has: (id) => bodies.has(id),
    body: (id) => bodies.get(id),
    onUntrusted(id) {
      options.untrusted?.inc();
      if (logged.has(id)) return;
      logged.set(id, true);
      options.logger.warn({ hash: id, mode: options.mode }, 'operation outside the trusted documents');
    },
    refresh,
    async start() {
      // Loaded in every mode: a client may name a loaded document by its id even with the policy off.
      await refresh();
      timer = setInterval(() => {
        refresh().catch((error: unknown) =>
          options.logger.warn({ reason: (error as Error).message }, 'trusted documents: the store could not be read; keeping the loaded manifest'),
        );
      }, options.pollMs);
      timer.unref();
    },
    stop: () => clearInterval(timer),
  };
}
