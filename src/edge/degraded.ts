/**
 * Answers a dependency spoiled: the database or Redis is down, hung or restarting, or the store's
 * disk is full. They become a 503 in the variant's envelope (with Retry-After) instead of a 500, a
 * wait, or an unsafe answer; each one is logged (a full disk said as such) and counted.
 */
import type { Logger } from 'pino';
import { ApiError } from '../domain/refusal.js';

/** Connection-level failures of pg, better-sqlite3 and sockets; never a bug in our own code. */
const TRANSIENT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'SQLITE_BUSY', 'SQLITE_LOCKED']);
const TRANSIENT_MESSAGES =
  /timeout exceeded when trying to connect|query read timeout|connection terminated|client has encountered a connection error|connection is closed|not queryable|cannot use a pool after calling end/i;

/** Storage full: SQLite's SQLITE_FULL, PostgreSQL's 53100 disk_full, the file system's ENOSPC. */
const DISK_FULL_CODES = new Set(['SQLITE_FULL', '53100', 'ENOSPC']);

type Failure = { code?: unknown; message?: unknown; cause?: unknown; thrownValue?: unknown };
type Kind = 'disk_full' | 'unavailable';

/**
 * The dependency failure `error` is (it or what it wraps, up to 4 deep: a `cause`, or the
 * `thrownValue` graphql-js keeps when what was thrown does not pass for an Error, as an error from
 * another realm does), and which of the chain said so; undefined for none.
 */
function failureIn(error: unknown): { kind: Kind; said: Failure } | undefined {
  for (let e = error as Failure | undefined, depth = 0; e && depth < 4; e = (e.cause ?? e.thrownValue) as Failure | undefined, depth++) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (DISK_FULL_CODES.has(code)) return { kind: 'disk_full', said: e };
    // SQLSTATE classes 08 (connection), 53 (resources), 57 (operator intervention: shutdown, restart).
    if (TRANSIENT_CODES.has(code) || /^(08|53|57)/.test(code)) return { kind: 'unavailable', said: e };
    if (typeof e.message === 'string' && TRANSIENT_MESSAGES.test(e.message)) return { kind: 'unavailable', said: e };
  }
  return undefined;
}

/**
 * What the storage said (`database or disk is full`, `could not extend file …`) when `error` is or
 * wraps a full disk, else undefined: classified as the answers are, for the CLI's message.
 */
export function diskFullReason(error: unknown): string | undefined {
  const failure = failureIn(error);
  if (failure?.kind !== 'disk_full') return undefined;
  const { message, code } = failure.said;
  return typeof message === 'string' && message ? message : String(code);
}

const dependencyUnavailable = () => new ApiError(503, 'a dependency is temporarily unavailable; retry shortly', { 'Retry-After': '1' });

export interface DegradedAnswers {
  /** Logs and counts one degraded answer; `where` says which path gave it. */
  record(where: string, error: unknown): void;
  /** The 503 to answer when `error` is a dependency's failure (recorded), else undefined. */
  answerFor(where: string, error: unknown): ApiError | undefined;
  /** When (epoch ms) a full disk was last recorded or answered, or undefined: readiness names the condition from it. */
  lastDiskFull(): number | undefined;
}

export function createDegradedAnswers(logger: Logger, counter?: { inc(labels: { where: string }): void }): DegradedAnswers {
  let lastDiskFull: number | undefined;
  const log = (where: string, error: unknown, kind: Kind | undefined) => {
    counter?.inc({ where });
    const reason = (error as Error)?.message ?? String(error);
    if (kind === 'disk_full') {
      lastDiskFull = Date.now();
      logger.error({ where, reason }, "degraded answer: 503, the store's disk is full (free space where DATA_DIR or the database lives)");
    } else {
      logger.warn({ where, reason }, 'degraded answer: 503, a dependency is unavailable');
    }
  };
  return {
    record: (where, error) => log(where, error, failureIn(error)?.kind),
    answerFor(where, error) {
      const kind = failureIn(error)?.kind; // classified once, for the answer and its log line
      if (kind === undefined) return undefined;
      log(where, error, kind);
      return dependencyUnavailable();
    },
    lastDiskFull: () => lastDiskFull,
  };
}
