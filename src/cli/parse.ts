/** Strict parsers for option values: a typo must fail loudly, not become 0 or NaN. */
import { InvalidArgumentError } from 'commander';

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

export function parseNumber(value: string): number {
  const n = DECIMAL.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(n)) throw new InvalidArgumentError('Expected a decimal number, e.g. 100000 or 2.5.');
  return n;
}

// Date only (UTC midnight, as D7 reads dates) or date-time with an explicit zone, so the result never
// depends on the operator's local time zone.
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** ISO 8601 to epoch ms; rejects impossible dates that Date.parse would roll over (2026-02-30). */
export function parseIsoTimestamp(value: string): number {
  const m = ISO.exec(value);
  const invalid = () => new InvalidArgumentError('Expected an ISO 8601 date or date-time with a zone, e.g. 2026-12-31T23:59:00Z.');
  if (!m) throw invalid();
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [number, number, number, number, number, number];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const inRange = month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth;
  if (!inRange || hour > 23 || minute > 59 || second > 59) throw invalid();
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) throw invalid();
  return ms;
}

export function parseNonEmpty(value: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw new InvalidArgumentError('Must not be empty.');
  return trimmed;
}
