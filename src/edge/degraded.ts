/**
 * Answers a dependency spoiled: the database or Redis is down, hung or restarting, or the store's
 * disk is full. They become a 503 in the variant's envelope (with Retry-After) instead of a 500, a
 * wait, or an unsafe answer; each one is logged (a full disk said as such) and counted.
 */
import type { Logger } from 'pino';
import { ApiError } from './errors.js';

/** Connection-level failures of pg, better-sqlite3 and sockets; never a bug in our own code. */
const TRANSIENT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'SQLITE_BUSY', 'SQLITE_LOCKED']);
const TRANSIENT_MESSAGES =
  /timeout exceeded when trying to connect|query read timeout|connection terminated|client has encountered a connection error|connection is closed|not queryable|cannot use a pool after calling end/i;

/** Storage full: SQLite's SQLITE_FULL, PostgreSQL's 53100 disk_full, the file system's ENOSPC. */
const DISK_FULL_CODES = new Set(['SQLITE_FULL', '53100', 'ENOSPC']);

type Failure = { code?: unknown; message?: unknown; cause?: unknown; thrownValue?: unknown };

/**
 * What kind of dependency failure `error` is (it or what it wraps, up to 4 deep: a `cause`, or the
 * `thrownValue` graphql-js keeps when what was thrown does not pass for an Error, as an error from
 * another realm does), or undefined for none.
 */
function dependencyFailure(error: unknown): 'disk_full' | 'unavailable' | undefined {
  for (let e = error as Failure | undefined, depth = 0; e && depth < 4; e = (e.cause ?? e.thrownValue) as Failure | undefined, depth++) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (DISK_FULL_CODES.has(code)) return 'disk_full';
    // SQLSTATE classes 08 (connection), 53 (resources), 57 (operator intervention: shutdown, restart).
    if (TRANSIENT_CODES.has(code) || /^(08|53|57)/.test(code)) return 'unavailable';
    if (typeof e.message === 'string' && TRANSIENT_MESSAGES.test(e.message)) return 'unavailable';
  }
  return undefined;
}

const dependencyUnavailable = () => new ApiError(503, 'a dependency is temporarily unavailable; retry shortly', { 'Retry-After': '1' });

export interface DegradedAnswers {
  /** Logs and counts one degraded answer; `where` says which path gave it. */
  record(where: string, error: unknown): void;
  /** The 503 to answer when `error` is a dependency's failure (recorded), else undefined. */
  answerFor(where: string, error: unknown): ApiError | undefined;
}

export function createDegradedAnswers(logger: Logger, counter?: { inc(labels: { where: string }): void }): DegradedAnswers {
  const log = (where: string, error: unknown, kind: ReturnType<typeof dependencyFailure>) => {
    counter?.inc({ where });
    const reason = (error as Error)?.message ?? String(error);
    if (kind === 'disk_full') {
      logger.error({ where, reason }, "degraded answer: 503, the store's disk is full (free space where DATA_DIR or the database lives)");
    } else {
      logger.warn({ where, reason }, 'degraded answer: 503, a dependency is unavailable');
    }
  };
  return {
    record: (where, error) => log(where, error, dependencyFailure(error)),
    answerFor(where, error) {
      const kind = dependencyFailure(error); // classified once, for the answer and its log line
      if (kind === undefined) return undefined;
      log(where, error, kind);
      return dependencyUnavailable();
    },
  };
}
