/** Symbol normalisation shared by every entry point (REST, GraphQL, CLI). */

/** Symbols are matched case-insensitively and answered upper case (D6). */
export function normalizeSymbol(symbol: string): string {
  return symbol.trim().toUpperCase();
}

/** Splits a comma list, trims, drops blanks and duplicates, keeps the first occurrence's order. */
export function parseSymbolList(values: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const value of values) {
    for (const part of value.split(',')) {
      const symbol = normalizeSymbol(part);
      if (symbol) seen.add(symbol);
    }
  }
  return [...seen];
}
