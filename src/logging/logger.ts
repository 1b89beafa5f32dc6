/**
 * pino logs: JSON lines for log collectors, readable lines (pino-pretty) for a person at a terminal.
 * Keys never reach a log line: headers are redacted and `apikey` is masked in URLs.
 */
import { createRequire } from 'node:module';
import { type DestinationStream, pino, type Logger } from 'pino';
import type { PinoPretty } from 'pino-pretty';
import { traceIdsMixin } from '../telemetry/tracing.js';

/**
 * pino-pretty is required only for a terminal (about 1.2 MB of heap a service logging JSON does
 * without), synchronously: the logger exists before anything is awaited.
 */
const prettyStream = (): typeof PinoPretty => (createRequire(import.meta.url)('pino-pretty') as { PinoPretty: typeof PinoPretty }).PinoPretty;

/** `auto`: pretty when stdout is a terminal, JSON when it is a pipe or a file (a collector reads it). */
export type LogFormat = 'auto' | 'json' | 'pretty';

/** True when log lines to `out` are for a person (pretty): LOG_FORMAT=pretty, or `auto` on a terminal. */
export const logsForPeople = (format: LogFormat, out: { isTTY?: boolean } = process.stdout): boolean =>
  format === 'pretty' || (format === 'auto' && out.isTTY === true);

/** Where log lines go when the caller names no other destination: `out` (stdout), pretty or JSON. */
export function consoleDestination(format: LogFormat, out: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout): DestinationStream | undefined {
  const isTty = out.isTTY === true;
  if (!logsForPeople(format, out)) return out === process.stdout ? undefined : out;
  // To stdout by its file descriptor, synchronously (sonic-boom): a line written just before a crash
  // or an exit is not lost. (pino-pretty writes to a stream object as the stream does.)
  const destination = out === process.stdout ? 1 : out;
  return prettyStream()({ destination, sync: true, colorize: isTty, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service' });
}

/** A key as the CLI issues it, wherever it appears in a URL (an oddly spelled or encoded parameter too). */
const KEY_IN_TEXT = /mgw_[A-Za-z0-9]{20,}/g;

/** `traced`: each line logged within a traced request carries its `trace_id` and `span_id` (off: no mixin, no cost). */
export function createLogger(level: string, destination?: DestinationStream, traced = false): Logger {
  return pino(
    {
      level,
      ...(traced ? { mixin: traceIdsMixin } : {}),
      base: { service: 'market-gateway' },
      redact: {
        paths: ['req.headers.authorization', 'headers.authorization', 'authorization', 'apikey', 'key'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

/** `/api/v1/markets?apikey=mgw_secret&x=1` -> `/api/v1/markets?apikey=[redacted]&x=1` */
export function redactUrl(url: string): string {
  const masked = url.replace(/([?&]apikey=)[^&#]*/gi, '$1[redacted]').replace(KEY_IN_TEXT, '[redacted]');
  // A percent-encoded name or key (`%61pikey=%6Dgw_…`) still authenticates: if the decoded query
  // holds either, the whole query string goes.
  let decoded = masked;
  try {
    decoded = decodeURIComponent(masked);
  } catch {
    /* a malformed escape: judge what is there */
  }
  if (!/apikey=[^&#[]|mgw_[A-Za-z0-9]{20,}/i.test(decoded)) return masked;
  const q = masked.indexOf('?');
  return q < 0 ? '[redacted]' : `${masked.slice(0, q)}?[redacted]`;
}
