/** Printing: JSON for scripts (one document on stdout), aligned tables for people. */

export { isoOrNull } from '../domain/time.js';

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function printLines(...lines: string[]): void {
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Columns padded to their widest cell; the last column is not padded (no trailing blanks). */
export function printTable(headers: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ');
  printLines(line(headers), ...rows.map(line));
}
