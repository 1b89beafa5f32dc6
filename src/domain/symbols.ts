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

/**
 * Known symbols a person may have meant by one that is not known: the markets of that base
 * (`BTC` -> `BTC/USD`), the pair with its separator put right (`BTCUSD`, `BTC-USD` -> `BTC/USD`), the
 * same base in another quote (`BTC/EUR` -> `BTC/USD`). At most three, in the order known.
 */
export function suggestSymbols(asked: string, known: readonly string[]): string[] {
  const wanted = normalizeSymbol(asked);
  const flat = wanted.replace(/[-_ /]/g, '');
  const base = wanted.split(/[-_ /]/, 1)[0]!;
  const close = known.filter((symbol) => symbol.replace('/', '') === flat);
  const sameBase = known.filter((symbol) => symbol.split('/', 1)[0] === base && !close.includes(symbol));
  return [...close, ...sameBase].slice(0, 3);
}

/** The 404 message for symbols that are not known markets (D6 names them), each with what was likely meant. */
export function unknownSymbolsMessage(unknown: readonly string[], known: readonly string[]): string {
  const named = unknown.map((symbol) => {
    const meant = suggestSymbols(symbol, known);
    return meant.length > 0 ? `${symbol} (did you mean ${meant.join(' or ')}?)` : symbol;
  });
  return `unknown symbol${unknown.length > 1 ? 's' : ''}: ${named.join(', ')}`;
}
