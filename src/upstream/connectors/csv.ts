/** Minimal CSV for the upstreams we read (ECB rates, daily bars): no quoting in either, so a split suffices. */

interface CsvTable {
  header: string[];
  rows: { line: number; cells: string[] }[];
}

export function parseCsv(text: string): CsvTable {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = (lines[0] ?? '').split(',').map((h) => h.trim());
  // ECB lines end with a comma: a trailing empty column is not a column.
  if (header.at(-1) === '') header.pop();
  const rows = lines
    .slice(1)
    .map((line, i) => ({ line: i + 2, cells: line.split(',').map((c) => c.trim()) }))
    .filter((r) => r.cells.some((c) => c !== ''));
  return { header, rows };
}

/** `2025-05-09` -> epoch ms of that date at 00:00 UTC, or undefined when it is not a real date. */
export function utcDay(text: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return undefined;
  const ms = Date.parse(`${text}T00:00:00Z`);
  // Date.parse rolls impossible days over (2026-11-31 -> 12-01): only a date that reads back the same counts.
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== text ? undefined : ms;
}
