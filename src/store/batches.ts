/** Rows per INSERT: well below SQLite's 32 766 bound variables and PostgreSQL's 65 535. */
const BATCH = 500;

export function chunks<T>(items: readonly T[], size = BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
